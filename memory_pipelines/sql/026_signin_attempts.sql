-- 026: password attempts at the console's sign-in form, per organisation and name typed (an
-- account or not, so a lock tells nobody which names exist; kept as the SHA-256 of the pair,
-- never the text, which may be a password typed in the wrong field). Past a few wrong ones,
-- each attempt locks the pair for longer (api/accounts.py); a right one, or a day without an
-- attempt, forgets them. Password guessing had been as fast as the server's argon2 work
-- allowed.
CREATE TABLE admin_signin_attempts (
    pair_sha256   bytea PRIMARY KEY,   -- SHA-256 of the organisation and name typed
    failures      integer NOT NULL,    -- attempts not yet followed by a right password
    last_at       timestamptz NOT NULL DEFAULT now(),
    locked_until  timestamptz
);
CREATE INDEX admin_signin_attempts_age ON admin_signin_attempts (last_at);
COMMENT ON TABLE admin_signin_attempts IS
    'Password attempts at the console sign-in, per SHA-256 of the organisation and name typed; '
    'forgotten after a right password or a quiet day.';
