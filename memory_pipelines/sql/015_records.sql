-- 015: the Records list (api/records.py, store/records.py) and "Written by".

-- The key that wrote a record through the API (NULL: the application itself, a job, the CLI).
-- A record derived during a turn names the model above the key whose conversation it was: that
-- key is the chat's (chats.key_id). Keys are revoked, never deleted, so the reference holds.
ALTER TABLE agent_memory_items ADD COLUMN key_id text REFERENCES api_keys;
COMMENT ON COLUMN agent_memory_items.key_id IS
    'the API key that wrote the record (NULL: written by the application, a job or the CLI)';

-- The Records list: newest change first within a store, keyset-paged on (updated_at, item_id),
-- with a total. The included columns let every filter but metadata be answered from the index
-- alone (an index-only scan), so neither a page nor its count reads the wide rows (each holds
-- a 1.5 KB vector) of records it does not return.
CREATE INDEX items_records_idx ON agent_memory_items
    (store_id, updated_at DESC, item_id DESC) INCLUDE (state, category, confidence, person_id);

-- The Metadata filter: every key and value given (metadata @> {...}).
CREATE INDEX items_metadata_idx ON agent_memory_items USING gin (metadata jsonb_path_ops);
