-- 027: rows written before 024-026 put right as those migrations' code now writes them.
--
-- The extracted candidates of records deleted before 025 keep where they were said, not what:
-- their text and vector go (store/items.py, delete_item, does it since).
UPDATE extraction_candidates c SET embedding = NULL, payload = jsonb_strip_nulls(
        jsonb_build_object('from_seq', c.payload->'from_seq', 'to_seq', c.payload->'to_seq',
                           'deleted', true))
    WHERE c.item_id IS NOT NULL AND NOT (c.payload ? 'deleted')
      AND NOT EXISTS (SELECT 1 FROM agent_memory_items i WHERE i.item_id = c.item_id);

-- Records extracted from a tool's turn (a fetched page, a search result) before it was read as
-- untrusted (api/extraction.py): not vouched for.
UPDATE agent_memory_items i SET trusted = false
    WHERE i.trusted AND i.origin = 'derived' AND i.written_by = 'extraction@v1'
      AND i.chat_id IS NOT NULL AND i.from_seq IS NOT NULL
      AND EXISTS (SELECT 1 FROM turns t WHERE t.chat_id = i.chat_id
                  AND t.seq BETWEEN i.from_seq AND coalesce(i.to_seq, i.from_seq)
                  AND lower(t.role) = 'tool');

-- Responses kept for retries before 024 name no store, so deleting their store could not take
-- them along (they hold what was written); a retry of one runs again. Kept rows past their
-- 24 hours are removed as new ones are claimed (store/idempotency.py), by this index.
DELETE FROM idempotent_requests WHERE store_id IS NULL;
CREATE INDEX idempotent_requests_age ON idempotent_requests (created_at);

-- A development database migrated while 026 made a table of wrong passwords in plain text:
-- that table goes, and the hashed one is made if 026 as it shipped never ran there.
DROP TABLE IF EXISTS admin_signin_failures;
CREATE TABLE IF NOT EXISTS admin_signin_attempts (
    pair_sha256   bytea PRIMARY KEY,
    failures      integer NOT NULL,
    last_at       timestamptz NOT NULL DEFAULT now(),
    locked_until  timestamptz
);
CREATE INDEX IF NOT EXISTS admin_signin_attempts_age ON admin_signin_attempts (last_at);
