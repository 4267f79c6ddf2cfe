"""First hybrid search over items and turns."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.ranked import rank_candidates
from memory_pipelines.errors import ValidationError
from memory_pipelines.store import search as search_db
from memory_pipelines.store.search_sql import K1, B
from memory_pipelines.store.turns import PREV_WEIGHT


def test_hybrid_search_finds_items_and_turns(memory: Memory, recall: Recall) -> None:
    memory.add_person("ana")
    memory.write_turn("c", "My sister just adopted a greyhound called Biscuit.")
    memory.write_turn("c", "The quarterly report is due on the 14th.")
    memory.write_turn("c", "We had pasta for dinner.")
    shared = memory.save(
        {"category": "fact", "context": "Sister owns a greyhound named Biscuit", "confidence": 7}
    ).id
    private = memory.save(
        {
            "category": "fact",
            "context": "Ana's greyhound Biscuit is afraid of cats",
            "confidence": 7,
            "person": "ana",
        }
    ).id
    hits = recall.search("what dog does the sister have?", k=3)
    assert hits[0].kind in ("item", "turn")
    kinds_ids = {(h.kind, h.id) for h in hits}
    assert ("item", shared) in kinds_ids
    assert ("item", private) not in kinds_ids  # another person's record never leaks
    assert any(h.kind == "turn" and "greyhound" in h.text for h in hits)
    as_ana = recall.search("greyhound", ["agent"], person="ana", k=5)
    assert {h.id for h in as_ana} == {shared, private}
    assert memory.get(shared).access_count == 2


def test_search_validates_input(recall: Recall) -> None:
    with pytest.raises(ValidationError, match="scopes"):
        recall.search("x", ["everything"])
    with pytest.raises(ValidationError, match="k"):
        recall.search("x", k=0)
    with pytest.raises(ValidationError, match="query"):
        recall.search("  ")


def test_turns_bring_whether_they_ask_and_their_neighbours_meaning(
    memory: Memory, recall: Recall
) -> None:
    memory.write_turn(
        "c", "What's the name of your new dog? [image: a puppy]", speaker="Jo", created_at=_DAY1
    )
    memory.write_turn("c", "Her name is Shadow! [image: a dog]", speaker="Mia", created_at=_DAY1)
    memory.write_turn("c", "She sleeps on my bed already.", speaker="Mia", created_at=_DAY1)
    # two days later: another session, not the context of the turn before it
    memory.write_turn("c", "My dog chewed my new shoes.", speaker="Mia", created_at=_DAY3)
    query = "What is Mia's dog called?"
    qvec = recall.embedder.embed_one(query)
    with recall.db.connection() as conn:
        ranked = rank_candidates(
            conn, recall.store_id, query, qvec, ["turn"], None, 30, datetime.now(UTC)
        )
        rows = conn.execute(
            "SELECT seq, 1 - (embedding <=> %s) AS cos FROM turns t JOIN chats c USING (chat_id)"
            " WHERE c.store_id = %s ORDER BY seq",
            (qvec, recall.store_id),
        ).fetchall()
    cos = {r["seq"]: r["cos"] for r in rows}
    by_id = {c.id: c for c, _ in ranked}
    by_seq = {seq: by_id[_turn_id(memory, seq)] for seq in sorted(cos)}
    assert by_seq[1].asks and not by_seq[2].asks  # a caption hides neither ? nor !
    assert by_seq[2].context == pytest.approx(cos[1] + cos[3], abs=1e-5)
    assert by_seq[3].context == pytest.approx(cos[2], abs=1e-5)  # seq 4 is another session
    assert by_seq[4].context == pytest.approx(0.0)
    assert [c.named for c in by_seq.values()] == [0, 1, 1, 1]  # Mia speaks: the speaker bonus
    assert ranked[0][0].id == by_seq[2].id  # the answer, read with its question, comes first


def test_the_reply_to_a_turn_asking_the_question_ranks_first(
    memory: Memory, recall: Recall
) -> None:
    """The answer to a question asked in the chat says little of it in its own words; the
    turn asking it lends it part of its match (ranking.ANSWER_SUPPORT), and it ranks above
    that turn and the turn that brought the internship up (without the support, the asking
    turn comes first)."""
    memory.write_turn(
        "c", "I got accepted for a fashion internship!", speaker="Gi", created_at=_DAY1
    )
    memory.write_turn(
        "c", "Congrats! Where is your new internship based?", speaker="Jo", created_at=_DAY1
    )
    memory.write_turn(
        "c",
        "It's a part-time role at an international company in Milan.",
        speaker="Gi",
        created_at=_DAY1,
    )
    hits = recall.search("Where is Gi's new internship based?", ["history"], k=3)
    assert [h.text for h in hits][0].startswith("It's a part-time role")
    assert len(hits) == 3


_DAY1 = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)
_DAY3 = datetime(2024, 5, 3, 18, 0, tzinfo=UTC)


def _turn_id(memory: Memory, seq: int) -> int:
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT turn_id FROM turns WHERE store_id = %s AND seq = %s", (memory.store_id, seq)
        ).fetchone()
    assert row is not None
    return int(row["turn_id"])


def test_words_are_ranked_by_bm25_with_the_turn_before_counting_a_part(
    memory: Memory, recall: Recall
) -> None:
    """The SQL BM25 of a small store, worked out again here from each turn's tsvector: a word
    of the turn's own counts 1 (weight A), a word of the turn before it PREV_WEIGHT (B)."""
    for speaker, text in [
        ("Jo", "I bought a red kayak last spring."),
        ("Mia", "A kayak! Kayak trips are the best, I bought one too."),
        ("Jo", "We paddled the river every weekend."),
        ("Mia", "Nice weather today."),
        ("Jo", "The kayak club meets on Sundays."),
    ]:
        memory.write_turn("c", text, speaker=speaker, created_at=_DAY1)
    query = "Who bought a kayak?"
    qvec = recall.embedder.embed_one(query)
    with recall.db.connection() as conn:
        found = search_db.candidates(conn, ["turn"], recall.store_id, query, qvec, None, 30)
        lexemes = {
            r["lexeme"]
            for r in conn.execute("SELECT lexeme FROM unnest(to_tsvector('english', %s))", (query,))
        }
        rows = conn.execute(
            "SELECT t.turn_id, t.doc_len, u.lexeme, u.weights FROM turns t,"
            " unnest(t.tsv) AS u WHERE t.store_id = %s",
            (recall.store_id,),
        ).fetchall()
    assert lexemes == {"bought", "kayak"}
    tf: dict[int, dict[str, float]] = {}
    dl: dict[int, float] = {}
    for r in rows:
        dl[r["turn_id"]] = r["doc_len"]
        if r["lexeme"] in lexemes:
            own, before = r["weights"].count("A"), r["weights"].count("B")
            tf.setdefault(r["turn_id"], {})[r["lexeme"]] = own + PREV_WEIGHT * before
    n, avgdl = len(dl), max(sum(dl.values()) / len(dl), 1.0)
    df = {w: sum(w in counts for counts in tf.values()) for w in lexemes}
    expected = {
        turn: sum(
            math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
            * f
            * (K1 + 1)
            / (f + K1 * (1 - B + B * dl[turn] / avgdl))
            for w, f in counts.items()
        )
        for turn, counts in tf.items()
    }
    got = {int(r["id"]): float(r["bm25"]) for r in found["turn"] if r["bm25"]}
    assert got == pytest.approx(expected, rel=1e-6)  # doc_len is a float4
    # the river turn holds no word of the question: the kayak of the turn before counts for it
    river = _turn_id(memory, 3)
    assert got[river] > 0
    assert tf[river] == pytest.approx({"bought": PREV_WEIGHT, "kayak": 2 * PREV_WEIGHT})


def test_how_a_readers_words_are_ranked_does_not_turn_on_another_persons_rows(
    memory: Memory, recall: Recall
) -> None:
    """Words are ranked in SQL up to `exact_rows` rows, from the BM25 index past it, and the
    two rank differently. The count is of the rows the reader may read: were it the store's,
    a key limited to Bob, watching his scores while Ana writes, would learn her row count."""
    with recall.db.connection() as conn:
        if not search_db.capabilities(conn).bm25:
            pytest.skip("the server has no pg_textsearch: words are always ranked in SQL")
    memory.add_person("ana")
    memory.add_person("bob")
    bobs = [
        "I saw a quokka at the zoo",
        "The marmoset and the quokka shared a cage",
        "We fed the goats at the farm",
        "A marmoset climbed the fence",
    ]
    memory.write_turns("bob-chat", [{"text": t} for t in bobs], person="bob")
    query = "quokka marmoset"
    qvec = recall.embedder.embed_one(query)

    def found() -> dict[int, tuple[float, float]]:
        with recall.db.connection() as conn:
            rows = search_db.candidates(
                conn, ["turn"], recall.store_id, query, qvec, "bob", 2, exact_rows=5
            )["turn"]
        return {r["id"]: (r["lexical"], r["cos"]) for r in rows}

    before = found()
    assert any(lexical > 0 for lexical, _ in before.values())
    ana = [{"text": f"quokka quokka, day {i}"} for i in range(20)]
    memory.write_turns("ana-chat", ana, person="ana")
    after = found()
    assert after.keys() == before.keys()
    for id_, (lexical, cos) in before.items():
        assert after[id_] == pytest.approx((lexical, cos), abs=1e-9)
