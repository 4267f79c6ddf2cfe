-- 024: the store a write sent with an Idempotency-Key went to, so that deleting the store
-- deletes the responses kept for it. A kept response holds what the write wrote (a record's
-- text): with the store deleted and made again under the same id, a retry of the old request
-- was answered from it, "201 created" with the deleted record's text, while nothing was
-- written. Rows kept before this migration name no store; they expire within 24 hours.
ALTER TABLE idempotent_requests ADD COLUMN store_id text;
CREATE INDEX idempotent_requests_store ON idempotent_requests (store_id)
    WHERE store_id IS NOT NULL;
