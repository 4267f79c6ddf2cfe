-- 011: organisations that own stores, API keys stored as hashes, the read audit made
-- append-only, and the responses of idempotent writes. The rules themselves (policy
-- intersection, ceilings) are in memory_pipelines/core/access.py.

-- An organisation owns stores and keys; its ceiling (permitted capabilities) bounds its own keys
-- and every organisation below it; its policy is a list of Permit and Deny rules (JSON, see
-- core/access.parse_policy). Organisations are never re-parented, so the tree has no cycle.
CREATE TABLE organisations (
    org_id      text PRIMARY KEY CHECK (org_id ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
    name        text NOT NULL DEFAULT '',
    parent_id   text REFERENCES organisations,
    ceiling     text[] NOT NULL DEFAULT '{}'
                CHECK (ceiling <@ ARRAY['knowledge', 'memory']
                       AND (NOT 'memory' = ANY (ceiling) OR 'knowledge' = ANY (ceiling))),
    policy      jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(policy) = 'array'),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (parent_id IS DISTINCT FROM org_id)
);
CREATE INDEX organisations_parent_idx ON organisations (parent_id);
COMMENT ON TABLE organisations IS
    'Owners of stores and keys. A key may do what its policy, its organisation''s policy and '
    'the ceiling of every organisation from its own up permit (core/access.py).';
COMMENT ON COLUMN organisations.ceiling IS 'permitted capabilities: knowledge, memory (needs knowledge)';

-- Every store existing before this migration belongs to the default organisation, whose ceiling
-- permits memory; its policy is empty (no rule, no right) until an operator writes one.
INSERT INTO organisations (org_id, name, ceiling)
    VALUES ('default', 'Default organisation', '{knowledge,memory}');
ALTER TABLE stores ADD COLUMN org_id text NOT NULL DEFAULT 'default' REFERENCES organisations;
CREATE INDEX stores_org_idx ON stores (org_id);

-- API keys: the text `mp_<key_id>_<secret>` is shown once; only its SHA-256 is kept (why a fast
-- hash: core/keys.py). Keys are revoked, never deleted, so the audit always names its reader.
CREATE TABLE api_keys (
    key_id          text PRIMARY KEY CHECK (key_id ~ '^[0-9a-f]{12}$'),
    org_id          text NOT NULL REFERENCES organisations,
    name            text NOT NULL DEFAULT '',
    secret_sha256   bytea NOT NULL CHECK (length(secret_sha256) = 32),
    policy          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(policy) = 'array'),
    decay_per_type  jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(decay_per_type) = 'object'),
    trust_envelope  boolean,
    rate_per_minute integer NOT NULL DEFAULT 600 CHECK (rate_per_minute > 0),
    rate_burst      integer NOT NULL DEFAULT 60 CHECK (rate_burst > 0),
    rate_tat        timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    created_by      text NOT NULL DEFAULT '',
    expires_at      timestamptz,
    revoked_at      timestamptz,
    revoked_by      text,
    last_used_at    timestamptz
);
CREATE INDEX api_keys_org_idx ON api_keys (org_id);
COMMENT ON COLUMN api_keys.decay_per_type IS
    'type -> half-life in days; goes before the store''s decay for what this key reads';
COMMENT ON COLUMN api_keys.trust_envelope IS
    'auto-recall under this key wraps records in <untrusted source="memory">; NULL: the store''s';
COMMENT ON COLUMN api_keys.rate_tat IS
    'rate limit (GCRA): the theoretical arrival time of the next request; a request is refused '
    'while rate_tat + 60/rate_per_minute s - now() exceeds rate_burst * 60/rate_per_minute s';
COMMENT ON COLUMN api_keys.last_used_at IS 'the last authenticated request with this key';

-- ---- the read audit -------------------------------------------------------------------------
-- Who (a key, or later an administrator account; `actor` names an internal reader), when, which
-- endpoint with which filters, and the ids of exactly the records returned. Written in the
-- reading transaction (api/audit.py): no row, no read.
ALTER TABLE read_audit RENAME COLUMN action TO endpoint;
ALTER TABLE read_audit RENAME COLUMN item_ids TO record_ids;
ALTER TABLE read_audit RENAME COLUMN detail TO filters;
ALTER TABLE read_audit ALTER COLUMN store_id DROP NOT NULL;
ALTER TABLE read_audit ALTER COLUMN actor SET DEFAULT '';
ALTER TABLE read_audit ADD COLUMN key_id text REFERENCES api_keys;
ALTER TABLE read_audit ADD COLUMN account_id bigint;  -- administrator accounts: a later migration
ALTER TABLE read_audit ADD CONSTRAINT read_audit_who
    CHECK (key_id IS NOT NULL OR account_id IS NOT NULL OR actor <> '');
CREATE INDEX read_audit_records_idx ON read_audit USING gin (record_ids);
CREATE INDEX read_audit_key_idx ON read_audit (key_id, at);
COMMENT ON TABLE read_audit IS
    'Append-only: every read through the API, who read it and the exact record ids returned.';
COMMENT ON COLUMN read_audit.store_id IS 'the store read; NULL for a read across stores';

CREATE FUNCTION read_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'read_audit is append-only: % is refused', TG_OP;
END $$;
CREATE TRIGGER read_audit_append_only BEFORE UPDATE OR DELETE ON read_audit
    FOR EACH ROW EXECUTE FUNCTION read_audit_append_only();
CREATE TRIGGER read_audit_no_truncate BEFORE TRUNCATE ON read_audit
    FOR EACH STATEMENT EXECUTE FUNCTION read_audit_append_only();

-- ---- idempotent writes ----------------------------------------------------------------------
-- The first response to a write with an Idempotency-Key, replayed to a retry with the same key
-- and the same request. status_code NULL: the first request is still being served.
CREATE TABLE idempotent_requests (
    key_id          text NOT NULL REFERENCES api_keys,
    idempotency_key text NOT NULL,
    fingerprint     text NOT NULL,   -- SHA-256 of method, path and body
    status_code     integer,
    response        jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key_id, idempotency_key)
);
COMMENT ON TABLE idempotent_requests IS
    'First responses of writes sent with an Idempotency-Key, per key, kept 24 hours.';
