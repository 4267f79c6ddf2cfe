-- 015: the Records list (api/records.py, store/records.py), "Written by", and the read audit
-- of reads that return other records than memory items.

-- The key that wrote a record through the API (NULL: the application, a job or the CLI). A
-- record derived during a turn names the model above the key whose conversation it was: that
-- key is the chat's (chats.key_id). Keys are revoked, never deleted, so the reference holds.
ALTER TABLE agent_memory_items ADD COLUMN key_id text REFERENCES api_keys;
COMMENT ON COLUMN agent_memory_items.key_id IS
    'the API key that wrote the record (NULL: written by the application, a job or the CLI)';

-- ---- the Records list ------------------------------------------------------------------------
-- A narrow copy of what the list filters and orders on, one row per item, kept by a trigger.
-- An item row is wide (its 1.5 KB vector stays in the row for recall): a filter the indexes
-- cannot answer alone (metadata), and the total the list shows, read every matching row, and
-- at 100,000 records in a store that was 250-550 ms from the wide rows here, against a few ms
-- from these.
CREATE TABLE item_listing (
    item_id     bigint PRIMARY KEY REFERENCES agent_memory_items ON DELETE CASCADE,
    store_id    text NOT NULL,
    person_id   text,
    category    text NOT NULL,
    state       text NOT NULL,
    confidence  smallint NOT NULL,
    updated_at  timestamptz NOT NULL,
    metadata    jsonb NOT NULL
);
COMMENT ON TABLE item_listing IS
    'What the Records list filters and orders on, one row per memory item (kept by a trigger on '
    'agent_memory_items; read agent_memory_items itself for everything else).';
-- Newest change first within a store, keyset-paged on (updated_at, item_id); the included
-- columns answer every filter but metadata from the index alone.
CREATE INDEX item_listing_order_idx ON item_listing (store_id, updated_at DESC, item_id DESC)
    INCLUDE (state, category, confidence, person_id);
-- The same order within one person's records (the For whom filter, and a reader limited to a
-- person): without it a person with few records meant scanning the whole store to find them.
CREATE INDEX item_listing_person_idx
    ON item_listing (store_id, person_id, updated_at DESC, item_id DESC)
    INCLUDE (state, category, confidence) WHERE person_id IS NOT NULL;
CREATE INDEX item_listing_metadata_idx ON item_listing USING gin (metadata jsonb_path_ops);

CREATE FUNCTION item_listing_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO item_listing (item_id, store_id, person_id, category, state, confidence,
                              updated_at, metadata)
    VALUES (NEW.item_id, NEW.store_id, NEW.person_id, NEW.category, NEW.state, NEW.confidence,
            NEW.updated_at, NEW.metadata)
    ON CONFLICT (item_id) DO UPDATE SET
        store_id = EXCLUDED.store_id, person_id = EXCLUDED.person_id,
        category = EXCLUDED.category, state = EXCLUDED.state,
        confidence = EXCLUDED.confidence, updated_at = EXCLUDED.updated_at,
        metadata = EXCLUDED.metadata;
    RETURN NULL;
END $$;
CREATE TRIGGER item_listing_insert AFTER INSERT ON agent_memory_items
    FOR EACH ROW EXECUTE FUNCTION item_listing_sync();
-- Only a change of a listed column rewrites the copy (a recall's access counts do not).
CREATE TRIGGER item_listing_update
    AFTER UPDATE OF store_id, person_id, category, state, confidence, updated_at, metadata
    ON agent_memory_items FOR EACH ROW
    WHEN (OLD.store_id IS DISTINCT FROM NEW.store_id
          OR OLD.person_id IS DISTINCT FROM NEW.person_id
          OR OLD.category IS DISTINCT FROM NEW.category OR OLD.state IS DISTINCT FROM NEW.state
          OR OLD.confidence IS DISTINCT FROM NEW.confidence
          OR OLD.updated_at IS DISTINCT FROM NEW.updated_at
          OR OLD.metadata IS DISTINCT FROM NEW.metadata)
    EXECUTE FUNCTION item_listing_sync();

INSERT INTO item_listing (item_id, store_id, person_id, category, state, confidence, updated_at,
                          metadata)
SELECT item_id, store_id, person_id, category, state, confidence, updated_at, metadata
FROM agent_memory_items;

-- ---- the read audit ----------------------------------------------------------------------------
-- Reads that return other kinds of record than memory items (a search's turns, chunks and
-- documents, a boot window): every record returned as kind:id. record_ids keeps the memory
-- items' ids, so "who read record N" stays one indexed lookup.
ALTER TABLE read_audit ADD COLUMN record_refs text[] NOT NULL DEFAULT '{}';
COMMENT ON COLUMN read_audit.record_refs IS
    'every record returned, as kind:id (item:12, turn:40, chunk:3, document:7, email:9)';
