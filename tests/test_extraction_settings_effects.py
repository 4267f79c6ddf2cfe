"""What the Extraction card's settings change in a real extraction run through Dagster: which
conversations are read (keys, minimum messages, how far back), which record types are written,
the instructions and model reaching an OpenAI-compatible endpoint chosen by the card's backend;
and auto-recall showing a history hit as related past discussion with a drill-down handle."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.core.types import Item
from memory_pipelines.resources import ModelResource
from memory_pipelines.store.db import Database
from tests.fake_openai import FakeOpenAI
from tests.test_extraction import materialize

PREFERENCE = "I always want prices quoted with VAT included, I forget to add it."
FACT = "Our API gateway times out requests after 30 seconds."
OLD_FACT = "Our warehouse in Porto ships every order on Mondays."
DECISION = "We're going with Flutter so one team can ship both apps."


def _chat(*texts: str) -> list[tuple[str, str, str]]:
    """Ana's turns, each answered by the assistant."""
    out = []
    for text in texts:
        out += [("user", "Ana", text), ("assistant", "", "Understood.")]
    return out


def _write(
    memory: Memory,
    chat: str,
    turns: list[tuple[str, str, str]],
    start: datetime,
    key_id: str | None = None,
) -> int:
    """The turns one minute apart from `start`; the chat's id."""
    written = memory.write_turns(
        chat,
        [
            {"role": r, "speaker": s, "text": t, "created_at": start + timedelta(minutes=i)}
            for i, (r, s, t) in enumerate(turns)
        ],
        key_id=key_id,
    )
    return written[0].chat_id


def _by_chat(items: list[Item]) -> dict[int | None, list[str]]:
    out: dict[int | None, list[str]] = {}
    for i in items:
        out.setdefault(i.chat_id, []).append(i.context)
    return out


# Which conversations: the card, then its chats as (external id, key, [(turns, days ago)]).
# The first chat qualifies, the others do not; each says something of its own, so a chat read
# by mistake would add a record of its own rather than confirm the first one's.
Chat = tuple[str, str | None, list[tuple[list[tuple[str, str, str]], int]]]
FILTERS: dict[str, tuple[dict[str, object], list[Chat]]] = {
    "keys": (
        {"keys": ["key-listed"]},
        [
            ("listed", "key-listed", [(_chat(PREFERENCE), 0)]),
            ("other-key", "key-other", [(_chat(FACT), 0)]),
            ("no-key", None, [(_chat(DECISION), 0)]),
        ],
    ),
    "min_messages": (
        {"min_messages": 4},
        [
            ("four", None, [(_chat(PREFERENCE, "Thanks, that's all."), 0)]),
            ("two", None, [(_chat(FACT), 0)]),
            ("three", None, [(_chat(DECISION) + [("user", "Ana", "Ok.")], 0)]),
        ],
    ),
    "lookback_days": (
        {"lookback_days": 7},
        [
            # its first exchange is 30 days old: left out, the recent one read
            ("mixed", None, [(_chat(OLD_FACT), 30), (_chat(PREFERENCE), 0)]),
            ("old", None, [(_chat(FACT), 30)]),
        ],
    ),
}


def _write_chats(memory: Memory, chats: list[Chat]) -> list[int]:
    now = datetime.now(UTC) - timedelta(hours=1)
    ids = []
    for name, key_id, parts in chats:
        for turns, days in parts:
            chat_id = _write(memory, name, turns, now - timedelta(days=days), key_id)
        ids.append(chat_id)
    return ids


def _windows(db: Database, store_id: str) -> dict[int, list[tuple[int, int]]]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT chat_id, from_seq, to_seq FROM extraction_windows WHERE store_id = %s"
            " ORDER BY chat_id, from_seq",
            (store_id,),
        ).fetchall()
    out: dict[int, list[tuple[int, int]]] = {}
    for r in rows:
        out.setdefault(r["chat_id"], []).append((r["from_seq"], r["to_seq"]))
    return out


@pytest.mark.parametrize("which", list(FILTERS))
def test_which_conversations_are_read(
    memory: Memory, db: Database, pg_dsn: str, which: str
) -> None:
    card, chats = FILTERS[which]
    # On the default card every one of these chats gives records of its own.
    twin = Memory(memory.store_id + "-default", db=db, embedder=memory.embedder)
    twin_ids = _write_chats(twin, chats)
    assert materialize(twin, pg_dsn).success
    assert set(_by_chat(twin.items())) == set(twin_ids), _by_chat(twin.items())

    memory.configure(extraction=card)
    read, *left_out = _write_chats(memory, chats)
    assert materialize(memory, pg_dsn).success
    by_chat = _by_chat(memory.items())
    assert set(by_chat) == {read}, by_chat  # nothing from the chats left out
    assert any("VAT" in c for c in by_chat[read]), by_chat
    windows = _windows(db, memory.store_id)
    assert set(windows) == {read}, windows  # the others were never read
    if which == "lookback_days":
        assert any("Porto" in c for c in _by_chat(twin.items())[twin_ids[0]])
        assert windows[read] == [(3, 4)], windows  # turns 1-2 are older than 7 days
        assert not any("Porto" in c for c in by_chat[read]), by_chat


def test_types_limit_what_extraction_writes(memory: Memory, db: Database, pg_dsn: str) -> None:
    turns = _chat(PREFERENCE, FACT)
    start = datetime.now(UTC) - timedelta(hours=1)
    # the same chat on the default card gives both a preference and a fact
    twin = Memory(memory.store_id + "-all", db=db, embedder=memory.embedder)
    _write(twin, "c1", turns, start)
    assert materialize(twin, pg_dsn).success
    both = {(i.category, "VAT" in i.context, "gateway" in i.context) for i in twin.items()}
    assert ("preference", True, False) in both and ("fact", False, True) in both, both

    memory.configure(extraction={"types": ["preference"]})
    _write(memory, "c1", turns, start)
    assert materialize(memory, pg_dsn).success
    items = memory.items()
    assert [i.category for i in items] == ["preference"], [(i.category, i.context) for i in items]
    assert "VAT" in items[0].context
    assert not any("gateway" in i.context for i in items)


def test_instructions_and_model_reach_the_backend_the_card_chooses(
    memory: Memory, db: Database, pg_dsn: str
) -> None:
    instructions = "Remember how each customer wants invoices: currency, VAT, due dates."
    memory.configure(
        extraction={"backend": "openai", "model": "acme-extractor-7b", "instructions": instructions}
    )
    _write(memory, "c1", _chat(PREFERENCE), datetime.now(UTC) - timedelta(hours=1))
    answer = json.dumps(
        {
            "items": [
                {
                    "category": "preference",
                    "context": "Ana wants every price quoted with VAT included",
                    "confidence": 6,
                    "from_seq": 1,
                    "to_seq": 1,
                }
            ]
        }
    )
    # The server's endpoint is configured on the resource, whose own backend stays local:
    # only the card's backend sends the extraction there.
    with FakeOpenAI([answer]) as fake:
        assert materialize(memory, pg_dsn, ModelResource(base_url=fake.url)).success
    extract = [r for r in fake.requests if "Allowed types" in r["body"]["messages"][1]["content"]]
    assert len(extract) == 1, fake.requests
    request = extract[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "acme-extractor-7b"
    prompt = request["body"]["messages"][1]["content"]
    assert f"What is worth remembering here: {instructions}" in prompt
    assert PREFERENCE in prompt
    [item] = memory.items()
    assert item.context == "Ana wants every price quoted with VAT included"
    assert item.model == "acme-extractor-7b" and item.source == "machine"

    # the default card (backend local) sends nothing to the endpoint, and still extracts
    other = Memory(memory.store_id + "-local", db=db, embedder=memory.embedder)
    _write(other, "c1", _chat(PREFERENCE), datetime.now(UTC) - timedelta(hours=1))
    with FakeOpenAI([answer]) as idle:
        assert materialize(other, pg_dsn, ModelResource(base_url=idle.url)).success
    assert idle.requests == []
    assert any("VAT" in i.context for i in other.items())
    assert all(i.model != "acme-extractor-7b" for i in other.items())


def test_autorecall_shows_a_history_hit_as_related_past_discussion(
    memory: Memory, recall: Recall
) -> None:
    at = datetime(2024, 4, 2, 10, 0, tzinfo=UTC)
    [turn] = memory.write_turns(
        "cabin-trip",
        [
            {
                "text": "The wifi password for the lake cabin is pinecone42.",
                "speaker": "Ana",
                "created_at": at,
                "trace_ref": "run-cabin-7",
            }
        ],
    )
    memory.write_turns("today", [{"text": "Morning, I'm back at the cabin.", "speaker": "Ana"}])
    out = autorecall(recall, "today", "What's the wifi password for the lake cabin?")
    history = [r for r in out.records if r["type"] == "related past discussion"]
    assert history, out.records
    line = next(r for r in history if r["ref"] == f"turn:{turn.turn_id}")
    assert line["excerpt"] == "Ana: The wifi password for the lake cabin is pinecone42."
    assert line["date"] == "2024-04-02"
    assert line["drill_down"] == f'r.drill_down("turn:{turn.turn_id}")'
    assert "fact" not in line and "confidence" not in line  # a pointer, not a distilled fact
    # the line reaches the model in the data message, and the digest counts it
    data = out.messages[-1]["content"]
    assert any(
        json.loads(raw).get("ref") == f"turn:{turn.turn_id}" for raw in data.split("\n")[1:-1]
    )
    assert "related past discussion" in out.messages[1]["content"]
    # the handle opens the turn: its trace_ref names the run it came from
    opened = recall.drill_down(f"turn:{turn.turn_id}")
    assert opened.trace_ref == "run-cabin-7"
