-- 005: the link graph's progress per item, and the decay scores of items.

-- Which version of each item linkgen has already read (its updated_at then). An item is read
-- again when it changes, or when a level-1 chunk covers its turns later. A per-item mark rather
-- than one time watermark per store, so an item committed late with an older updated_at is
-- never skipped.
CREATE TABLE linkgen_items (
    item_id          bigint PRIMARY KEY REFERENCES agent_memory_items ON DELETE CASCADE,
    store_id         text NOT NULL REFERENCES stores ON DELETE CASCADE,
    item_updated_at  timestamptz NOT NULL,
    -- when its candidates were read: a level-1 chunk over its turns created later sends the
    -- item back to linkgen (decided_in / discussed_in need the chunk to exist).
    read_at          timestamptz NOT NULL,
    run_id           text NOT NULL DEFAULT ''
);
CREATE INDEX linkgen_items_store_idx ON linkgen_items (store_id);
COMMENT ON TABLE linkgen_items IS
    'linkgen@v1 progress: the version (updated_at) of each item whose links were last proposed.';

-- Salience of each item as of the last decay pass. Derived data: memory items themselves
-- (confidence included) are never changed by decay.
CREATE TABLE item_scores (
    item_id         bigint PRIMARY KEY REFERENCES agent_memory_items ON DELETE CASCADE,
    store_id        text NOT NULL REFERENCES stores ON DELETE CASCADE,
    salience        double precision NOT NULL,
    base            double precision NOT NULL,
    idle_since      timestamptz NOT NULL,
    idle_days       double precision NOT NULL,
    half_life_days  double precision,            -- NULL: the item's category never decays
    computed_at     timestamptz NOT NULL,
    run_id          text NOT NULL DEFAULT ''
);
CREATE INDEX item_scores_store_idx ON item_scores (store_id, salience);
COMMENT ON TABLE item_scores IS
    'decay@v1: salience = base * 0.5 ^ (idle_days / half_life_days); base = confidence/10 * '
    '(0.5 + importance/20, or 0.75 without importance). One row per item, rewritten each pass.';
COMMENT ON COLUMN item_scores.idle_since IS
    'the later of last_recalled_at and last_confirmed_at, else updated_at';
