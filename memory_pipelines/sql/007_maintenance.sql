-- 007: the maintenance pass: a row per pass, and the contradiction judgements already made.

-- One row per maintenance pass of a store (the console's "when maintenance last ran").
CREATE TABLE maintenance_passes (
    pass_id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id       text NOT NULL REFERENCES stores ON DELETE CASCADE,
    run_id         text NOT NULL DEFAULT '',
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz NOT NULL DEFAULT now(),
    items_scanned  integer NOT NULL DEFAULT 0,
    merged         integer NOT NULL DEFAULT 0,
    archived       integer NOT NULL DEFAULT 0,
    restored       integer NOT NULL DEFAULT 0,
    contested      integer NOT NULL DEFAULT 0,
    judged         integer NOT NULL DEFAULT 0,
    duration_s     real NOT NULL DEFAULT 0,
    -- the newest event the pass had seen: restores after it are counted by the next pass
    last_event_id  bigint NOT NULL DEFAULT 0
);
CREATE INDEX maintenance_passes_store_idx ON maintenance_passes (store_id, pass_id);
COMMENT ON TABLE maintenance_passes IS
    'maintenance@v1: one row per pass over a store; merged = records superseded by a duplicate.';
COMMENT ON COLUMN maintenance_passes.restored IS
    'archived records confirmed again (restore events) since the previous pass';
COMMENT ON COLUMN maintenance_passes.judged IS 'contradiction judgements asked of the model';

-- Every pair of items the contradiction check has judged, with the wording it judged. A pair
-- is judged again only when either wording changed, so a rerun costs no model call.
CREATE TABLE contradiction_checks (
    item_a       bigint NOT NULL REFERENCES agent_memory_items ON DELETE CASCADE,
    item_b       bigint NOT NULL REFERENCES agent_memory_items ON DELETE CASCADE,
    store_id     text NOT NULL REFERENCES stores ON DELETE CASCADE,
    a_text_md5   text NOT NULL,
    b_text_md5   text NOT NULL,
    contradicts  boolean,        -- NULL: the answer failed validation (dropped and counted)
    reason       text NOT NULL DEFAULT '',
    backend      text NOT NULL,
    model        text NOT NULL,
    run_id       text NOT NULL DEFAULT '',
    judged_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_a, item_b),
    CHECK (item_a < item_b)
);
CREATE INDEX contradiction_checks_store_idx ON contradiction_checks (store_id);
COMMENT ON TABLE contradiction_checks IS
    'maintenance@v1: pairs judged for contradiction (smaller item id first), keyed to md5 of '
    'each context as judged; contradicts NULL when the model answer was invalid.';
