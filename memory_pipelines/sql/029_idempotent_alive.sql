-- 029: when the server serving a write sent with an Idempotency-Key last said it was still at
-- it (api/idempotency.py beats every 30 seconds for the writes it runs). A claim unfinished and
-- silent for two minutes died with its server; one still beating is in flight, however long
-- it runs (a claim was judged by its age alone: a write held on locks past five minutes was
-- told to its retry as dead, and a retry with a new key wrote it twice).
ALTER TABLE idempotent_requests ADD COLUMN alive_at timestamptz NOT NULL DEFAULT now();
