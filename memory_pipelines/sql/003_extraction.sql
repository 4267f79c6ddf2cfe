-- 003: extraction from conversations: windows of turns, the candidates read from them, and a
-- row of statistics per pass.

CREATE TABLE extraction_windows (
    window_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id     text NOT NULL REFERENCES stores ON DELETE CASCADE,
    chat_id      bigint NOT NULL REFERENCES chats ON DELETE CASCADE,
    from_seq     integer NOT NULL,
    to_seq       integer NOT NULL,
    -- pending: to read; extracted: candidates stored; applied: candidates saved (one transaction)
    state        text NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'extracted', 'applied')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    extracted_at timestamptz,
    applied_at   timestamptz,
    UNIQUE (chat_id, from_seq),
    CHECK (from_seq <= to_seq)
);
CREATE INDEX extraction_windows_state_idx ON extraction_windows (store_id, state);

CREATE TABLE extraction_candidates (
    candidate_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    window_id    bigint NOT NULL REFERENCES extraction_windows ON DELETE CASCADE,
    store_id     text NOT NULL,
    ord          integer NOT NULL,
    payload      jsonb NOT NULL,
    valid        boolean NOT NULL,
    drop_reason  text,
    outcome      text CHECK (outcome IN ('created', 'merged', 'superseded')),
    item_id      bigint,
    UNIQUE (window_id, ord)
);

CREATE TABLE extraction_passes (
    pass_id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id        text NOT NULL,
    run_id          text NOT NULL,
    started_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    windows_new     integer NOT NULL DEFAULT 0,
    windows_read    integer NOT NULL DEFAULT 0,
    candidates      integer NOT NULL DEFAULT 0,
    dropped_invalid integer NOT NULL DEFAULT 0,
    windows_applied integer NOT NULL DEFAULT 0,
    written         integer NOT NULL DEFAULT 0,
    confirmed       integer NOT NULL DEFAULT 0,
    superseded      integer NOT NULL DEFAULT 0,
    model_calls     integer NOT NULL DEFAULT 0,
    duration_s      real NOT NULL DEFAULT 0,
    UNIQUE (store_id, run_id)
);
COMMENT ON TABLE extraction_passes IS
    'One row per extraction run of a store: what was read, written, confirmed, superseded, dropped.';
