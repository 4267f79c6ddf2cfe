"""The attack table: every bad value at every public write (and read) entry is refused with a
ValidationError naming the field, before anything is written; on the command line, with one
line and exit code 2, no traceback, and nothing written (not even the store).

Add a case here whenever a new bad input is found: (id, call, the field the error must name).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.cli import main
from memory_pipelines.core.inputs import MAX_DOCUMENT_CHARS
from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Database

TABLES = ("chats", "turns", "agent_memory_items", "item_versions", "documents", "persons")
YEAR_10000 = "9999-12-31T23:59:59-12:00"  # a valid ISO string that is year 10000 in UTC
YEAR_0 = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1)))  # year 0 in UTC
FACT = {"category": "fact", "context": "The office closes at 6pm"}


def _item(**fields: Any) -> dict[str, Any]:
    return {**FACT, **fields}


def _commitment(**fields: Any) -> dict[str, Any]:
    return {"category": "commitment", "context": "Send the report to Ana", **fields}


Call = Callable[[Memory, Recall], Any]
API_CASES: list[tuple[str, Call, str]] = [
    # turns
    ("turn text NUL", lambda m, r: m.write_turn("c", "a\x00b"), "text"),
    ("turn text lone surrogate", lambda m, r: m.write_turn("c", "a\ud800b"), "text"),
    ("turn text not a string", lambda m, r: m.write_turn("c", 42), "text"),
    ("turn speaker int", lambda m, r: m.write_turn("c", "hi", speaker=7), "speaker"),
    ("turn speaker NUL", lambda m, r: m.write_turn("c", "hi", speaker="a\x00"), "speaker"),
    ("turn role unknown", lambda m, r: m.write_turn("c", "hi", role="bot"), "role"),
    ("turn role list", lambda m, r: m.write_turn("c", "hi", role=["user"]), "role"),
    ("chat id int", lambda m, r: m.write_turn(7, "hi"), "chat"),
    ("chat id object", lambda m, r: m.write_turn(object(), "hi"), "chat"),
    ("chat id NUL", lambda m, r: m.write_turn("c\x00", "hi"), "chat"),
    ("turn year 10000", lambda m, r: m.write_turn("c", "hi", created_at=YEAR_10000), "created_at"),
    ("turn year 0", lambda m, r: m.write_turn("c", "hi", created_at=YEAR_0), "created_at"),
    ("turn date int", lambda m, r: m.write_turn("c", "hi", created_at=1700000000), "created_at"),
    ("turn external_id int", lambda m, r: m.write_turn("c", "hi", external_id=5), "external_id"),
    ("turn trace_ref list", lambda m, r: m.write_turn("c", "hi", trace_ref=["x"]), "trace_ref"),
    ("turn person int", lambda m, r: m.write_turn("c", "hi", person=7), "person"),
    ("turns a string", lambda m, r: m.write_turns("c", "hello"), "turns"),
    (
        "turns unknown field",
        lambda m, r: m.write_turns("c", [{"text": "a"}, {"txt": "b"}]),
        "turns[1].txt",
    ),
    (
        "turns repeated external_id",
        lambda m, r: m.write_turns(
            "c", [{"text": "a", "external_id": "x"}, {"text": "b", "external_id": "x"}]
        ),
        "turns[1].external_id",
    ),
    # items
    ("item context NUL", lambda m, r: m.save(_item(context="Office\x00 hours")), "context"),
    ("item body surrogate", lambda m, r: m.save(_item(body="x\udfffy")), "body"),
    ("item category newline", lambda m, r: m.save(_item(category="fact\n")), "category"),
    ("item tags a string", lambda m, r: m.save(_item(tags="abc")), "tags"),
    ("item tags NUL", lambda m, r: m.save(_item(tags=["a\x00"])), "tags"),
    ("item person int", lambda m, r: m.save(_item(person=7)), "person"),
    ("item metadata set", lambda m, r: m.save(_item(metadata={"k": {1, 2}})), "metadata.k"),
    ("item metadata NaN", lambda m, r: m.save(_item(metadata={"k": float("nan")})), "metadata.k"),
    ("item metadata NUL", lambda m, r: m.save(_item(metadata={"k": "a\x00"})), "metadata.k"),
    (
        "item metadata date",
        lambda m, r: m.save(_item(metadata={"at": datetime.now(UTC)})),
        "metadata.at",
    ),
    ("item valid_from 10000", lambda m, r: m.save(_item(valid_from=YEAR_10000)), "valid_from"),
    ("commitment due_at year 0", lambda m, r: m.save(_commitment(due_at=YEAR_0)), "due_at"),
    ("commitment owed_to int", lambda m, r: m.save(_commitment(owed_to=5)), "owed_to"),
    ("dedup context NUL", lambda m, r: m.save_with_dedup(_item(context="a\x00b")), "context"),
    ("save chat int", lambda m, r: m.save(FACT, chat=5), "chat"),
    ("save turn_seq text", lambda m, r: m.save(FACT, chat="c", turn_seq="3"), "turn_seq"),
    ("save fed_by a string", lambda m, r: m.save(FACT, fed_by="12"), "fed_by"),
    ("save origin unknown", lambda m, r: m.save(FACT, origin="bogus"), "origin"),
    ("save written_by int", lambda m, r: m.save(FACT, written_by=3), "written_by"),
    # documents
    (
        "doc recipients a string",
        lambda m, r: m.add_document("d", "Hi", recipients="bob@x"),
        "recipients",
    ),
    (
        "doc recipients ints",
        lambda m, r: m.add_document("d", "Hi", recipients=[1]),
        "recipients[0]",
    ),
    ("doc title int", lambda m, r: m.add_document("d", "Hi", title=5), "title"),
    ("doc sender list", lambda m, r: m.add_document("d", "Hi", sender=["a"]), "sender"),
    ("doc id int", lambda m, r: m.add_document(5, "Hi"), "id"),
    ("doc text NUL", lambda m, r: m.add_document("d", "a\x00"), "text"),
    ("doc date 10000", lambda m, r: m.add_document("d", "Hi", created_at=YEAR_10000), "created_at"),
    ("doc too long", lambda m, r: m.add_document("d", "x " * MAX_DOCUMENT_CHARS), "text"),
    ("doc person int", lambda m, r: m.add_document("d", "Hi", person=5), "person"),
    # persons and settings
    ("person id NUL", lambda m, r: m.add_person("a\x00"), "person"),
    ("person name int", lambda m, r: m.add_person("ann", 5), "name"),
    (
        "cron not a cron",
        lambda m, r: m.configure(extraction={"cron": "not a cron"}),
        "extraction.cron",
    ),
    (
        "time zone Mars",
        lambda m, r: m.configure(extraction={"timezone": "Mars/Base"}),
        "extraction.timezone",
    ),
    (
        "threshold 5",
        lambda m, r: m.configure(maintenance={"duplicate_threshold": 5}),
        "maintenance.duplicate_threshold",
    ),
    (
        "batch_size float",
        lambda m, r: m.configure(extraction={"batch_size": 2.5}),
        "extraction.batch_size",
    ),
    ("keys a string", lambda m, r: m.configure(extraction={"keys": "a,b"}), "extraction.keys"),
    ("trust_envelope text", lambda m, r: m.configure(trust_envelope="yes"), "trust_envelope"),
    # reads
    ("search query NUL", lambda m, r: r.search("a\x00b"), "query"),
    ("search query surrogate", lambda m, r: r.search("a\ud800"), "query"),
    ("search person int", lambda m, r: r.search("office", person=7), "person"),
    ("search scopes a string", lambda m, r: r.search("office", "agent"), "scopes"),
    ("by_period year 10000", lambda m, r: r.by_period("2024-01-01", YEAR_10000), "end"),
    (
        "by_period person list",
        lambda m, r: r.by_period("2024-01-01", "2024-02-01", person=[]),
        "person",
    ),
    ("hydrate a string", lambda m, r: r.hydrate("item:1"), "hits"),
    ("hydrate person int", lambda m, r: r.hydrate(["item:1"], person=7), "person"),
    ("neighbors huge id", lambda m, r: r.neighbors("item:99999999999999999999"), "ref"),
    ("neighbors person int", lambda m, r: r.neighbors("item:1", person=7), "person"),
    ("items limit -5", lambda m, r: m.items(limit=-5), "limit"),
    ("items state unknown", lambda m, r: m.items(state="bogus"), "state"),
    ("items min_confidence text", lambda m, r: m.items(min_confidence="5"), "min_confidence"),
    ("items unknown filter", lambda m, r: m.items(colour="red"), "colour"),
    ("history id text", lambda m, r: m.history("abc"), "item_id"),
    ("commitments person int", lambda m, r: m.commitments(person=5), "person"),
    ("commitments unknown filter", lambda m, r: m.commitments(colour=5), "colour"),
    ("commitments limit -5", lambda m, r: m.commitments(limit=-5), "limit"),
    ("fulfil id text", lambda m, r: m.fulfil("x", "me"), "item_id"),
    ("fulfil actor NUL", lambda m, r: m.fulfil(1, "a\x00"), "actor"),
    ("delete actor int", lambda m, r: m.delete(1, actor=5), "actor"),
    ("boot window chat int", lambda m, r: m.boot_window(5, 100), "chat"),
    ("boot window chat NUL", lambda m, r: m.boot_window("c\x00", 100), "chat"),
    ("autorecall message int", lambda m, r: autorecall(r, "c", 5), "user_message"),
    ("autorecall message NUL", lambda m, r: autorecall(r, "c", "hours?\x00"), "user_message"),
    (
        "autorecall turn_seq text",
        lambda m, r: autorecall(r, "c", "hours?", turn_seq="1"),
        "turn_seq",
    ),
    ("autorecall person int", lambda m, r: autorecall(r, "c", "hours?", person=5), "person"),
    ("drill_down person int", lambda m, r: r.drill_down("turn:1", person=5), "person"),
    ("subscribe after text", lambda m, r: next(m.subscribe("x")), "after_id"),
    (
        "item edge target past bigint",
        lambda m, r: m.save(_item(edges=[{"type": "relates_to", "target": 2**70}])),
        "edges[0].target",
    ),
    ("get id past bigint", lambda m, r: m.get(2**70), "item_id"),
]


def _counts(db: Database, store_id: str) -> dict[str, int]:
    with db.connection() as conn:
        return {
            t: conn.execute(
                f"SELECT count(*) AS n FROM {t} WHERE store_id = %s",  # noqa: S608
                (store_id,),
            ).fetchone()["n"]
            for t in TABLES
        }


@pytest.mark.parametrize(
    ("call", "field"), [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES]
)
def test_api_refuses_bad_input(memory: Memory, recall: Recall, call: Call, field: str) -> None:
    memory.write_turn("c", "The office closes at 6pm on Fridays.")
    settings = memory.settings()
    before = _counts(memory.db, memory.store_id)
    with pytest.raises(ValidationError) as err:
        call(memory, recall)
    assert err.value.field == field, str(err.value)
    assert err.value.message and len(str(err.value)) < 400  # one readable line
    assert _counts(memory.db, memory.store_id) == before
    assert memory.settings() == settings


# -- the command line -------------------------------------------------------------------------


def _store_exists(db: Database, store_id: str) -> bool:
    with db.connection() as conn:
        row = conn.execute("SELECT 1 FROM stores WHERE store_id = %s", (store_id,)).fetchone()
    return row is not None


def _file(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def _turns(n: int, bad_line: int) -> str:
    lines = [json.dumps({"chat": "c", "text": f"Turn number {i}"}) for i in range(1, n + 1)]
    lines[bad_line - 1] = json.dumps({"chat": "c", "text": "Hi", "role": "bot"})
    return "\n".join(lines) + "\n"


def _docs_bad_line_3() -> str:
    lines = [
        {"id": "a", "text": "The office closes at 6pm."},
        {"id": "b", "text": "Invoices go out monthly."},
        {"id": "c", "text": "Hi Bob", "to": "bob@x"},
    ]
    return "\n".join(json.dumps(d) for d in lines) + "\n"


LOCOMO_TRUNCATED = '[{"sample_id": "s1", "conversation": {"speaker_a": "A", "session_1": [{"spe'
# (id, argv with {store} and {file}, file name and content or None, what the error names)
CLI_CASES: list[tuple[str, list[str], tuple[str, str | bytes] | None, str]] = [
    (
        "save --json not json",
        ["save", "-s", "{store}", "--category", "fact", "--context", "x", "--json", "not json"],
        None,
        "--json",
    ),
    (
        "save --json a list",
        ["save", "-s", "{store}", "--category", "fact", "--context", "x", "--json", "[1]"],
        None,
        "--json",
    ),
    (
        "save --json NUL",
        [
            "save",
            "-s",
            "{store}",
            "--category",
            "fact",
            "--context",
            "x",
            "--json",
            '{"body": "a\\u0000"}',
        ],
        None,
        "body",
    ),
    (
        "ingest bad line 290",
        ["ingest", "{file}", "-s", "{store}"],
        ("t.jsonl", _turns(300, 290)),
        "line 290: turns.role",
    ),
    (
        "ingest not json line",
        ["ingest", "{file}", "-s", "{store}"],
        ("t.jsonl", '{"text": "a"}\n{oops\n'),
        "line 2",
    ),
    (
        "ingest chat id int",
        ["ingest", "{file}", "-s", "{store}"],
        ("t.jsonl", '{"text": "a", "chat": 7}\n'),
        "line 1: turns.chat",
    ),
    (
        "ingest year 10000",
        ["ingest", "{file}", "-s", "{store}"],
        ("t.jsonl", json.dumps({"text": "a", "created_at": YEAR_10000})),
        "line 1: turns.created_at",
    ),
    (
        "ingest latin-1",
        ["ingest", "{file}", "-s", "{store}"],
        ("t.jsonl", '{"text": "ok"}\n{"text": "caf\xe9"}\n'.encode("latin-1")),
        "line 2",
    ),
    (
        "ingest locomo truncated",
        ["ingest", "{file}", "-s", "{store}"],
        ("l.json", LOCOMO_TRUNCATED),
        "line 1",
    ),
    (
        "ingest locomo not json",
        ["ingest", "{file}", "-s", "{store}"],
        ("l.json", "hello, world"),
        "line 1",
    ),
    (
        "ingest locomo no date",
        ["ingest", "{file}", "-s", "{store}"],
        (
            "l.json",
            json.dumps(
                {"conversation": {"session_1": [{"speaker": "A", "text": "hi", "dia_id": "D1:1"}]}}
            ),
        ),
        "[0].conversation.session_1_date_time",
    ),
    (
        "ingest-docs bad line 3",
        ["ingest-docs", "{file}", "-s", "{store}"],
        ("d.jsonl", _docs_bad_line_3()),
        "line 3: documents.to",
    ),
    (
        "ingest-docs latin-1",
        ["ingest-docs", "{file}", "-s", "{store}"],
        ("d.jsonl", '{"id": "a", "text": "caf\xe9"}\n'.encode("latin-1")),
        "line 1",
    ),
    (
        "ingest missing file",
        ["ingest", "/nonexistent/t.jsonl", "-s", "{store}"],
        None,
        "/nonexistent/t.jsonl: cannot be read (No such file",
    ),
    (
        "ingest a directory",
        ["ingest", "/tmp", "-s", "{store}"],
        None,
        "cannot be read (Is a directory)",
    ),
    (
        "ingest-docs missing file",
        ["ingest-docs", "/nonexistent/d.jsonl", "-s", "{store}"],
        None,
        "/nonexistent/d.jsonl: cannot be read",
    ),
    ("items no store", ["items", "-s", "{store}"], None, "does not exist"),
    ("search no store", ["search", "office", "-s", "{store}"], None, "does not exist"),
    ("history no store", ["history", "1", "-s", "{store}"], None, "does not exist"),
    (
        "delete no store",
        ["delete", "1", "-s", "{store}", "--actor", "me", "--yes"],
        None,
        "does not exist",
    ),
    ("commitments no store", ["commitments", "-s", "{store}"], None, "does not exist"),
    ("feed no store", ["feed", "-s", "{store}", "--no-follow"], None, "does not exist"),
    ("jobs status no store", ["jobs", "status", "-s", "{store}"], None, "does not exist"),
]


@pytest.mark.parametrize(
    ("argv", "file", "names"), [c[1:] for c in CLI_CASES], ids=[c[0] for c in CLI_CASES]
)
def test_cli_refuses_bad_input(
    db: Database,
    tmp_path: Path,
    argv: list[str],
    file: tuple[str, str | bytes] | None,
    names: str,
) -> None:
    store = f"bad-{uuid.uuid4().hex[:10]}"
    path = _file(tmp_path, *file) if file else ""
    res = CliRunner().invoke(
        main, [a.replace("{store}", store).replace("{file}", path) for a in argv]
    )
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and names in lines[0], res.output
    assert not _store_exists(db, store)  # nothing written: not even the store


def test_cli_items_limit_negative(memory: Memory) -> None:
    res = CliRunner().invoke(main, ["items", "-s", memory.store_id, "--limit", "-5"])
    assert res.exit_code == 2 and res.output.startswith("error: limit: must be 1-5000"), res.output


def test_cli_memory_home_not_writable(tmp_path: Path) -> None:
    """The embedded server cannot live where MEMORY_HOME points (here under a plain file, which
    even root cannot write into): one line naming the path, exit 2."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = {"MEMORY_PG_DSN": None, "MEMORY_HOME": str(blocker / "home")}
    res = CliRunner(env=env).invoke(main, ["items", "-s", "x"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.output.startswith("error: ") and str(blocker) in res.output, res.output


def _can_mount_read_only(tmp_path: Path) -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount --bind -o ro {tmp_path} {tmp_path}"],
        capture_output=True,
    )
    return probe.returncode == 0


def test_cli_read_only_memory_home(tmp_path: Path) -> None:
    """A really read-only MEMORY_HOME (a read-only bind mount, which binds root too)."""
    home = tmp_path / "home"
    home.mkdir()
    if not _can_mount_read_only(home):
        pytest.skip("needs unshare and mount (root) to make a read-only file system")
    script = (
        f"mount --bind -o ro {home} {home} && exec {sys.executable} -m memory_pipelines.cli"
        " items -s x"
    )
    env = {k: v for k, v in os.environ.items() if k != "MEMORY_PG_DSN"}
    res = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        env={**env, "MEMORY_HOME": str(home)},
        cwd=Path(__file__).resolve().parent.parent,
        timeout=120,
    )
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""
    assert f"error: Read-only file system ({home}" in res.stderr
    assert list(home.iterdir()) == []


@pytest.mark.parametrize(
    "invisible", ["\u200b", "\u200f\u200e\u202e", "\u2060\ufeff", "\u00ad", "\x07\x1b", " \u200b "]
)
def test_text_that_shows_nothing_is_refused(memory: Memory, invisible: str) -> None:
    """Found by a bad-input audit: a record or a turn of only zero-width spaces, direction
    marks or control characters counted as text (str.strip() keeps them) and was written."""
    with pytest.raises(ValidationError, match="context"):
        memory.save({"category": "fact", "context": invisible})
    with pytest.raises(ValidationError, match="text"):
        memory.write_turn("c1", invisible)
    with pytest.raises(ValidationError, match="chat"):
        memory.write_turn(invisible, "hello")
    assert memory.items() == []  # nothing written
    with memory.db.connection() as conn:
        n = conn.execute(
            "SELECT count(*) AS n FROM turns WHERE store_id = %s", (memory.store_id,)
        ).fetchone()["n"]
    assert n == 0
