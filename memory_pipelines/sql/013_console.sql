-- 013: administrator accounts of the console, their one-time sign-in links and their sessions,
-- kept server-side. Only hashes of the secrets are stored: an argon2 hash of a password, the
-- SHA-256 of a link or session token (both 256 random bits; see core/accounts.py).

CREATE TABLE admin_accounts (
    account_id      bigserial PRIMARY KEY,
    org_id          text NOT NULL REFERENCES organisations,
    name            text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}$'),
    password_hash   text,            -- argon2id; NULL: signs in with a one-time link only
    created_at      timestamptz NOT NULL DEFAULT now(),
    created_by      text NOT NULL DEFAULT '',
    disabled_at     timestamptz,
    UNIQUE (org_id, name)
);
COMMENT ON TABLE admin_accounts IS
    'Administrators of an organisation: they see its stores in the console. Disabled, never '
    'deleted, so the read audit always names its reader.';

-- A link printed by `memory-pipelines admins create|link`: used once, within its time.
CREATE TABLE admin_signin_links (
    token_sha256    bytea PRIMARY KEY CHECK (length(token_sha256) = 32),
    account_id      bigint NOT NULL REFERENCES admin_accounts,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz
);
CREATE INDEX admin_signin_links_account_idx ON admin_signin_links (account_id);

-- A signed-in browser: the cookie holds the token, this table its hash, the CSRF token of its
-- forms, and when it ends (idle or absolute expiry, or sign-out).
CREATE TABLE admin_sessions (
    session_sha256  bytea PRIMARY KEY CHECK (length(session_sha256) = 32),
    account_id      bigint NOT NULL REFERENCES admin_accounts,
    csrf_token      text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_seen_at    timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    ended_at        timestamptz
);
CREATE INDEX admin_sessions_account_idx ON admin_sessions (account_id);

-- The read audit names administrators by account (011 left the column without its reference).
ALTER TABLE read_audit ADD CONSTRAINT read_audit_account_fk
    FOREIGN KEY (account_id) REFERENCES admin_accounts;
CREATE INDEX read_audit_account_idx ON read_audit (account_id, at) WHERE account_id IS NOT NULL;
