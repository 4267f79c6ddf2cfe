"""Administrator accounts over plain HTTP and the CLI: one-time links used once, the sign-in form's
own CSRF token, the cookie's flags (Secure over https), disabling an account or setting its
password ends its sessions, a new link voids the older ones, wrong passwords lock the name
typed for longer each time, and `memory-pipelines admins ...`."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import httpx
import pytest
from click.testing import CliRunner

from memory_pipelines.api.accounts import (
    FREE_FAILURES,
    TooManyAttempts,
    create_admin,
    current,
    disable_admin,
    issue_link,
    list_admins,
    set_password,
    sign_in,
)
from memory_pipelines.cli import main
from memory_pipelines.core.accounts import digest
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store

PASSWORD = "correct horse battery staple"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _csrf(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, html
    return m.group(1)


def _name() -> str:
    return f"admin-{uuid.uuid4().hex[:6]}"


def _stores(html: str) -> list[str]:
    return re.findall(r'data-store="([^"]+)"', html)


def test_a_sign_in_link_works_once(db: Database, api_url: str) -> None:
    org = new_org(db)
    store = new_store(db, org)
    _, token = create_admin(db, org, _name())  # no password: links only
    with httpx.Client(base_url=api_url) as browser:
        shown = browser.get(f"/console/link/{token}")
        assert shown.status_code == 200 and "This link signs you in once." in shown.text
        assert shown.headers["referrer-policy"] == "no-referrer"  # the token stays here
        # opening the address did not spend it; the button's POST does
        assert browser.get(f"/console/link/{token}").status_code == 200
        res = browser.post(f"/console/link/{token}", data={"csrf": _csrf(shown.text)})
        assert res.status_code == 303 and res.headers["location"] == "/console"
        assert _stores(browser.get("/console").text) == [store]
    with httpx.Client(base_url=api_url) as other:
        again = other.get(f"/console/link/{token}")
        assert again.status_code == 410 and "used already" in again.text
        csrf = _csrf(other.get("/console/signin").text)
        res = other.post(f"/console/link/{token}", data={"csrf": csrf})
        assert res.status_code == 410
        assert "mp_console" not in res.headers.get("set-cookie", "")


def test_the_sign_in_form_needs_its_own_token(db: Database, api_url: str) -> None:
    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)
    fields = {"organisation": org, "name": name, "password": PASSWORD}
    with httpx.Client(base_url=api_url) as client:
        # no token cookie (a form posted from elsewhere): refused, whatever the password
        res = client.post("/console/signin", data={**fields, "csrf": "x" * 43})
        assert res.status_code == 403 and "cannot be accepted" in res.text
        csrf = _csrf(client.get("/console/signin").text)
        forged = client.post("/console/signin", data={**fields, "csrf": csrf[:-1]})
        assert forged.status_code == 403
        # not a urlencoded form
        res = client.post("/console/signin", json={**fields, "csrf": csrf})
        assert res.status_code == 403
        res = client.post("/console/signin", data={**fields, "csrf": csrf})
        assert res.status_code == 303
        cookie = res.headers["set-cookie"]
        assert "mp_console=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # plain http on loopback


def test_the_cookie_is_secure_behind_a_tls_proxy(db: Database, api_url: str) -> None:
    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)
    https = {"X-Forwarded-Proto": "https"}  # what a TLS proxy on this host sends
    with httpx.Client(base_url=api_url, headers=https) as client:
        shown = client.get("/console/signin")
        assert "Secure" in shown.headers["set-cookie"]
        csrf = _csrf(shown.text)
        fields = {"organisation": org, "name": name, "password": PASSWORD, "csrf": csrf}
        # httpx keeps a Secure cookie for https only: hand it back as the browser would
        res = client.post("/console/signin", data=fields, cookies={"mp_signin": csrf})
        assert res.status_code == 303
        session_cookie = [c for c in res.headers.get_list("set-cookie") if "mp_console=" in c]
        assert session_cookie and "Secure" in session_cookie[0]


def test_disabling_an_administrator_ends_its_sessions(db: Database, api_url: str) -> None:
    org = new_org(db)
    store = new_store(db, org)
    name = _name()
    _, token = create_admin(db, org, name, password=PASSWORD)
    session = sign_in(db, org, name, PASSWORD)
    assert session is not None
    with httpx.Client(base_url=api_url, cookies={"mp_console": session.token}) as client:
        assert _stores(client.get("/console").text) == [store]
        disable_admin(db, org, name)
        res = client.get("/console")
        assert res.status_code == 303 and res.headers["location"] == "/console/signin"
    assert sign_in(db, org, name, PASSWORD) is None
    with httpx.Client(base_url=api_url) as client:
        assert client.get(f"/console/link/{token}").status_code == 410


def test_a_new_password_ends_the_sessions_and_a_new_link_voids_the_older_ones(
    db: Database, api_url: str
) -> None:
    """Found by an audit helper: a session opened with a leaked password outlived the password
    set to lock its thief out, and the link printed by `admins create` still worked after
    `admins link` issued a new one."""
    org = new_org(db)
    store = new_store(db, org)
    name = _name()
    _, first_link = create_admin(db, org, name, password=PASSWORD)
    second_link = issue_link(db, org, name)
    with httpx.Client(base_url=api_url) as browser:
        assert browser.get(f"/console/link/{first_link}").status_code == 410
        assert browser.get(f"/console/link/{second_link}").status_code == 200
    stolen = sign_in(db, org, name, PASSWORD)
    assert stolen is not None
    with httpx.Client(base_url=api_url, cookies={"mp_console": stolen.token}) as thief:
        assert _stores(thief.get("/console").text) == [store]
        set_password(db, org, name, PASSWORD + " again")
        res = thief.get("/console")
        assert res.status_code == 303 and res.headers["location"] == "/console/signin"
    assert current(db, stolen.token) is None
    assert sign_in(db, org, name, PASSWORD) is None
    with httpx.Client(base_url=api_url) as browser:  # the link sent before is void too
        assert browser.get(f"/console/link/{second_link}").status_code == 410
    fresh = sign_in(db, org, name, PASSWORD + " again")
    assert fresh is not None and current(db, fresh.token) is not None


def test_wrong_passwords_lock_the_name_typed_for_longer_each_time(
    db: Database, api_url: str
) -> None:
    """Found by an audit helper: 40 wrong passwords in 6 s, then the right one signed in."""
    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)
    with httpx.Client(base_url=api_url) as client:

        def attempt(who: str, password: str) -> httpx.Response:
            csrf = _csrf(client.get("/console/signin").text)
            fields = {"organisation": org, "name": who, "password": password, "csrf": csrf}
            return client.post("/console/signin", data=fields)

        for _ in range(FREE_FAILURES):
            assert attempt(name, "not the password").status_code == 401
        assert attempt(name, "not the password").status_code == 401  # this one locks
        locked = attempt(name, PASSWORD)  # the right password waits its turn too
        assert locked.status_code == 429 and "Too many wrong passwords" in locked.text
        assert 1 <= int(locked.headers["retry-after"]) <= 2
        assert "mp_console" not in locked.headers.get("set-cookie", "")
        # a name that is no account locks the same way: the lock tells nobody it exists
        for _ in range(FREE_FAILURES + 1):
            assert attempt("nobody-here", "not the password").status_code == 401
        assert attempt("nobody-here", PASSWORD).status_code == 429
    # each wrong password past the lock locks for twice as long
    pair, nobody = digest(f"{org}\x00{name}"), digest(f"{org}\x00nobody-here")
    with db.connection() as conn:
        conn.execute(
            "UPDATE admin_signin_attempts SET locked_until = now() WHERE pair_sha256 = %s",
            (pair,),
        )
    assert sign_in(db, org, name, "still wrong") is None
    with pytest.raises(TooManyAttempts) as err:
        sign_in(db, org, name, PASSWORD)
    assert 1 < err.value.seconds <= 2  # 1 s, then 2 s, then 4 s ...
    # once the lock has passed, the right password signs in and the count starts again
    with db.connection() as conn:
        conn.execute(
            "UPDATE admin_signin_attempts SET locked_until = now() WHERE pair_sha256 = %s",
            (pair,),
        )
    assert sign_in(db, org, name, PASSWORD) is not None
    with db.connection() as conn:
        left = conn.execute(
            "SELECT pair_sha256 FROM admin_signin_attempts WHERE pair_sha256 = ANY(%s)",
            ([pair, nobody],),
        ).fetchall()
    assert [bytes(r["pair_sha256"]) for r in left] == [nobody]  # kept as a hash, never the text


def test_guesses_sent_at_once_meet_the_lock(db: Database) -> None:
    """Found by a second reader: the lock was read before the password's check and the wrong
    one counted after it, so guesses sent together were all checked."""
    from concurrent.futures import ThreadPoolExecutor

    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)

    def guess(_: int) -> str:
        try:
            return "checked" if sign_in(db, org, name, "not the password") is None else "in"
        except TooManyAttempts:
            return "locked"

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(guess, range(16)))
    # the free ones and the one that locks are checked; a slow machine may let the first lock
    # (1 s) pass before the last guesses come, and check one more
    assert FREE_FAILURES + 1 <= answers.count("checked") <= FREE_FAILURES + 2, answers


def test_a_password_set_during_a_sign_in_leaves_no_session(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a second reader: a sign-in whose password was checked just before the
    password was set anew opened a session after the sessions were ended."""
    from memory_pipelines.core import accounts as core_accounts

    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)
    checked = core_accounts.password_matches

    def set_while_checking(password: str, stored: str | None) -> bool:
        ok = checked(password, stored)
        set_password(db, org, name, PASSWORD + " again")  # between the check and the session
        return ok

    monkeypatch.setattr(core_accounts, "password_matches", set_while_checking)
    assert sign_in(db, org, name, PASSWORD) is None
    with db.connection() as conn:
        live = conn.execute(
            "SELECT count(*) AS n FROM admin_sessions s JOIN admin_accounts a USING (account_id)"
            " WHERE a.org_id = %s AND s.ended_at IS NULL",
            (org,),
        ).fetchone()
    assert live["n"] == 0


def test_admins_on_the_command_line(db: Database, api_url: str) -> None:
    runner = CliRunner()
    org = new_org(db)
    store = new_store(db, org)
    name = _name()

    res = runner.invoke(
        main, ["admins", "create", "--org", org, "--name", name, "--url", api_url, "--by", "ops"]
    )
    assert res.exit_code == 0, res.output
    [link] = re.findall(rf"{re.escape(api_url)}/console/link/\S+", res.output)
    with httpx.Client() as browser:
        shown = browser.get(link)
        res2 = browser.post(link, data={"csrf": _csrf(shown.text)})
        assert res2.status_code == 303
        assert _stores(browser.get(f"{api_url}/console").text) == [store]

    again = runner.invoke(main, ["admins", "create", "--org", org, "--name", name])
    assert again.exit_code == 2 and "already has an administrator" in again.output
    short = runner.invoke(
        main, ["admins", "password", "--org", org, "--name", name], input="short\nshort\n"
    )
    assert short.exit_code == 2 and "password: must be 12-1024 characters" in short.output
    res = runner.invoke(
        main,
        ["admins", "password", "--org", org, "--name", name],
        input=f"{PASSWORD}\n{PASSWORD}\n",
    )
    assert res.exit_code == 0, res.output
    assert sign_in(db, org, name, PASSWORD) is not None
    assert PASSWORD not in res.output

    listed = runner.invoke(main, ["admins", "list", "--org", org])
    assert listed.exit_code == 0 and name in listed.output and "password and links" in listed.output
    res = runner.invoke(main, ["admins", "disable", "--org", org, "--name", name])
    assert res.exit_code == 0, res.output
    [row] = list_admins(db, org)
    assert row["disabled_at"] is not None and "password_hash" not in row
    missing = runner.invoke(main, ["admins", "link", "--org", org, "--name", "nobody"])
    assert missing.exit_code == 2 and "has no administrator 'nobody'" in missing.output
    bad = runner.invoke(main, ["admins", "create", "--org", org, "--name", "no spaces"])
    assert bad.exit_code == 2 and "name: must be" in bad.output


def test_a_session_ends_after_its_idle_time_and_is_touched_at_most_once_a_minute(
    db: Database,
) -> None:
    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)
    session = sign_in(db, org, name, PASSWORD)
    assert session is not None

    def seen(ago: str | None = None) -> object:
        with db.connection() as conn:
            if ago is not None:
                conn.execute(
                    "UPDATE admin_sessions SET last_seen_at = now() - %s::interval"
                    " WHERE session_sha256 = %s",
                    (ago, digest(session.token)),
                )
            row = conn.execute(
                "SELECT now() - last_seen_at AS age FROM admin_sessions WHERE session_sha256 = %s",
                (digest(session.token),),
            ).fetchone()
        assert row is not None
        return row["age"]

    seen("30 seconds")
    assert current(db, session.token) is not None
    assert seen() >= timedelta(seconds=29)  # a recent use is not written again
    seen("2 minutes")
    assert current(db, session.token) is not None
    assert seen() < timedelta(seconds=5)  # an older one is moved to now
    seen("13 hours")
    assert current(db, session.token) is None  # idle too long: over


def test_a_password_set_while_a_session_opens_ends_that_session(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The account's row is held while a session opens (found by a reader of the mend: a
    password set between a sign-in's read of the hash and its new session's row left that
    session alive). The new password waits for the session, then ends it."""
    import threading

    from memory_pipelines.store import accounts as accounts_db

    org = new_org(db)
    name = _name()
    create_admin(db, org, name, password=PASSWORD)
    setter = threading.Thread(target=set_password, args=(db, org, name, PASSWORD + " again"))
    opening = accounts_db.open_session

    def open_while_setting(*args: object) -> None:
        setter.start()
        setter.join(1.0)  # without the row held, the password is set (and sessions ended) here
        opening(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(accounts_db, "open_session", open_while_setting)
    session = sign_in(db, org, name, PASSWORD)
    setter.join(10)
    assert not setter.is_alive()
    assert session is None or current(db, session.token) is None
