"""Dedup of extracted items: the sentences of one turn stay apart (issue 16)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import psycopg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.dedup import save_deduplicated
from memory_pipelines.api.dedup_near import Provenance, nearest, said_by_others
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.records import validate_item
from memory_pipelines.store.speakers import Speakers


def _chat_id(memory: Memory) -> int:
    memory.write_turns(
        "c1",
        [
            {
                "role": "user",
                "speaker": "Ana",
                "text": t,
                "created_at": datetime(2024, 3, 4, tzinfo=UTC),
            }
            for t in ("Morning!", "Still here.")
        ],
    )
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT chat_id FROM chats WHERE store_id = %s", (memory.store_id,)
        ).fetchone()
    return int(row["chat_id"])


def _save(memory: Memory, text: str, chat_id: int, seq: int):  # noqa: ANN202
    item = validate_item(
        {"category": "fact", "context": text, "confidence": 6, "source": "machine"}
    )
    prov = Provenance(origin="derived", trusted=True, chat_id=chat_id, from_seq=seq, to_seq=seq)
    with memory.db.transaction() as conn:
        return save_deduplicated(
            conn, memory.store_id, item, memory.embedder.embed_one(text), memory.models, prov
        )


def test_another_sentence_of_the_same_turn_is_never_merged_into(memory: Memory) -> None:
    chat = _chat_id(memory)
    first = _save(memory, "Gets up at 5:30 most days", chat, 1)
    # A paraphrase said in the first one's own turn is that turn's other sentence: a new item.
    same_turn = _save(memory, "Usually up at 5:30 in the morning", chat, 1)
    assert same_turn.merged_into is None and same_turn.superseded is None
    assert same_turn.reason == "only other sentences of its turn"
    # The very same words from the same turn (the turn read again) are the same item.
    again = _save(memory, "Gets up at 5:30 most days", chat, 1)
    assert again.merged_into == first.id, again.reason
    # Said in another turn, the paraphrase confirms an item: the judge merges it.
    other_turn = _save(memory, "Usually up at 5:30 in the morning", chat, 2)
    assert other_turn.merged_into in (first.id, same_turn.id), other_turn.reason
    assert len(memory.items()) == 2


def test_both_sentences_of_a_turn_are_kept_by_extraction(memory: Memory) -> None:
    said = datetime(2023, 7, 3, 13, 0, tzinfo=UTC)
    memory.write_turns(
        "locomo-like",
        [
            {
                "role": "user",
                "speaker": "Melanie",
                "text": "I just signed up for a pottery class yesterday. Clay is like therapy"
                " for me, letting me express myself and get creative.",
                "created_at": said,
            },
            {"role": "user", "speaker": "Caroline", "text": "Wow, that's awesome!",
             "created_at": said},
        ],
    )  # fmt: skip
    counts = run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t")
    assert counts["candidates"] == 2
    texts = sorted(i.context for i in memory.items())
    assert len(texts) == 2, texts
    assert any("pottery class" in t for t in texts)
    assert any("express herself" in t for t in texts)


def test_an_item_another_person_said_is_never_merged_into_or_replaced(memory: Memory) -> None:
    said = datetime(2023, 7, 3, 13, 0, tzinfo=UTC)
    memory.write_turns(
        "two-people",
        [
            {"role": "user", "speaker": who, "text": text, "created_at": said}
            for who, text in (
                ("Caroline", "Painting helps me express my feelings."),
                ("Melanie", "Painting helps me express my feelings too."),
                ("Caroline", "Painting lets me express my feelings."),
            )
        ],
    )
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT chat_id, min(seq) AS first FROM turns WHERE store_id = %s GROUP BY chat_id",
            (memory.store_id,),
        ).fetchone()
    chat, first = int(row["chat_id"]), int(row["first"])

    def save(text: str, seq: int, speaker: str):  # noqa: ANN202
        item = validate_item(
            {"category": "fact", "context": text, "confidence": 6, "source": "machine"}
        )
        prov = Provenance(
            origin="derived", trusted=True, chat_id=chat, from_seq=seq, to_seq=seq,
            speaker=speaker,
        )  # fmt: skip
        with memory.db.transaction() as conn:
            return save_deduplicated(
                conn, memory.store_id, item, memory.embedder.embed_one(text), memory.models, prov
            )

    caroline = save("Painting helps Caroline express her feelings.", first, "Caroline")
    # whatever the judge would say, Caroline's item is not shown for a candidate of Melanie's
    vec = memory.embedder.embed_one("Painting helps Melanie express her feelings.")
    with memory.db.connection() as conn:
        near = nearest(conn, memory.store_id, None, vec, 6)
        hers = Provenance("derived", True, chat_id=chat, from_seq=first + 1, to_seq=first + 1)
        assert said_by_others(conn, replace(hers, speaker="Melanie"), near) == {caroline.id}
        assert said_by_others(conn, replace(hers, speaker="Caroline"), near) == set()
        assert said_by_others(conn, hers, near) == set()  # no speaker: nothing is hidden
        # the memo a run's pool keeps answers the same, and a turn asked again is not read again
        memo = Speakers()
        assert said_by_others(conn, replace(hers, speaker="Melanie"), near, memo) == {caroline.id}
        assert memo.of(conn, chat, [first, first + 1, first + 99]) == {
            first: "Caroline", first + 1: "Melanie"}  # fmt: skip
    # on a closed connection: what it was asked is remembered, what it was not is read (and
    # fails), and so is a turn the chat did not hold when asked: it may be written since
    closed = psycopg.connect(memory.db.dsn)
    closed.close()
    assert memo.of(closed, chat, [first, first + 1]) == {first: "Caroline", first + 1: "Melanie"}
    for unasked in (first + 2, first + 99):
        with pytest.raises(psycopg.OperationalError):
            memo.of(closed, chat, [unasked])
    # Melanie's is another person's fact, however close its words: a new item
    melanie = save("Painting helps Melanie express her feelings.", first + 1, "Melanie")
    assert melanie.merged_into is None and melanie.superseded is None, melanie.reason
    # Caroline saying it again confirms her own item
    again = save("Painting helps Caroline express her feelings.", first + 2, "Caroline")
    assert again.merged_into == caroline.id, again.reason
    assert len(memory.items()) == 2
    # Shown to Melanie all the same: what Caroline said that names Melanie (it is about her
    # too: a schedule the two share, said by one and changed by the other), and what Caroline
    # said of a third in the chat they share
    for text in ("Melanie lent Caroline her easel last week.",
                 "The studio's rent went up to 300 euros."):  # fmt: skip
        shown = save(text, first + 2, "Caroline")
        with memory.db.connection() as conn:
            near = nearest(conn, memory.store_id, None, vec, 6)
            hidden = said_by_others(conn, replace(hers, speaker="Melanie"), near)
        assert shown.id in {n[0].item_id for n in near} and shown.id not in hidden, text
        assert caroline.id in hidden


def test_what_another_person_said_in_another_chat_is_neither_confirmed_nor_replaced(
    memory: Memory,
) -> None:
    """Tom's surgery date in his chat is not what Priya says of hers in another chat of the
    store (found by a user's probe: 'arthroscopy for October 14th' was superseded by 'back on
    April 10th'); the same speaker in another chat still confirms or replaces."""
    said = datetime(2026, 9, 1, tzinfo=UTC)
    chats = {}
    for chat, who in (("tom-chat", "Tom"), ("priya-chat", "Priya")):
        memory.write_turns(
            chat, [{"role": "user", "speaker": who, "text": "News.", "created_at": said}]
        )
        with memory.db.connection() as conn:
            row = conn.execute(
                "SELECT chat_id, min(seq) AS seq FROM turns JOIN chats USING (chat_id)"
                " WHERE chats.store_id = %s AND chats.external_id = %s GROUP BY chat_id",
                (memory.store_id, chat),
            ).fetchone()
        chats[who] = (int(row["chat_id"]), int(row["seq"]))

    def save(text: str, who: str, speaker: str | None = None):  # noqa: ANN202
        chat, seq = chats[who]
        item = validate_item(
            {"category": "fact", "context": text, "confidence": 6, "source": "machine"}
        )
        prov = Provenance("derived", True, chat_id=chat, from_seq=seq, to_seq=seq,
                          speaker=speaker or who)  # fmt: skip
        with memory.db.transaction() as conn:
            return save_deduplicated(
                conn, memory.store_id, item, memory.embedder.embed_one(text), memory.models, prov
            )

    toms = save("The knee surgery is on October 14th.", "Tom")
    priyas = save("The knee surgery is on October 20th now.", "Priya")
    assert priyas.superseded is None and priyas.merged_into is None, priyas.reason
    assert {i.id for i in memory.items()} == {toms.id, priyas.id}
    # Tom himself, said in another chat, does replace it
    again = save("The knee surgery is on October 20th now.", "Priya", speaker="Tom")
    assert again.superseded == toms.id or again.merged_into == priyas.id, again.reason
