-- 026: wrong passwords at the console's sign-in form, per organisation and name typed (an
-- account or not, so a lock tells nobody which names exist). Past a few, each wrong password
-- locks the pair for longer (api/accounts.py); a right one, or a day without a wrong one,
-- forgets them. Password guessing had been as fast as the server's argon2 work allowed.
CREATE TABLE admin_signin_failures (
    org_id          text NOT NULL,
    name            text NOT NULL,
    failures        integer NOT NULL DEFAULT 0,
    last_failed_at  timestamptz NOT NULL DEFAULT now(),
    locked_until    timestamptz,
    PRIMARY KEY (org_id, name)
);
CREATE INDEX admin_signin_failures_age ON admin_signin_failures (last_failed_at);
COMMENT ON TABLE admin_signin_failures IS
    'Wrong passwords typed at the console sign-in, per organisation and name typed; forgotten '
    'after a right one or a quiet day.';
