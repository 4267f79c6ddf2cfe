"""The conversation page under Traces (new): when its audit row cannot be written the page is a
503 and shows no turn; with the audit writable it is recorded with exactly the turns shown.
(test_console_guards lists the other console pages, not this one.)"""

from __future__ import annotations

from memory_pipelines.api.audit import reads_by_account
from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store
from tests.test_console_guards import _browser


def test_conversation_page_is_not_shown_when_its_read_cannot_be_audited(
    db: Database, api_url: str, embedder: Embedder
) -> None:
    org = new_org(db)
    store = new_store(db, org)
    memory = Memory(store, db=db, embedder=embedder)
    memory.add_person("alice")
    turns = memory.write_turns(
        "alice-chat", [{"text": "The Faro depot keeps the spare scanners."}], person="alice"
    )
    chat = turns[0].chat_id
    client, account, _ = _browser(db, api_url, org)
    fn = f"refuse_account_{account}"
    with db.connection() as conn:
        conn.execute(
            f"CREATE FUNCTION {fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" IF NEW.account_id = {account} THEN RAISE EXCEPTION 'audit refused'; END IF;"
            " RETURN NEW; END $$"
        )
        conn.execute(
            f"CREATE TRIGGER {fn} BEFORE INSERT ON read_audit FOR EACH ROW EXECUTE FUNCTION {fn}()"
        )
    path = f"/console/traces/stores/{store}/chats/{chat}"
    try:
        refused = client.get(path)
    finally:
        with db.connection() as conn:
            conn.execute(f"DROP TRIGGER {fn} ON read_audit")
            conn.execute(f"DROP FUNCTION {fn}()")
    try:
        assert refused.status_code == 503, refused.text
        assert "Faro depot" not in refused.text
        assert reads_by_account(db, account) == []
        shown = client.get(path)
        assert shown.status_code == 200 and "Faro depot" in shown.text
        [read] = reads_by_account(db, account)
        assert read["record_refs"] == [f"turn:{turns[0].turn_id}"]
    finally:
        client.close()
