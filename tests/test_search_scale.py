"""Search takes its candidates from indexes: a small store beside a big one, and a person's few
records beside another person's many, still get their k results, and nothing of anyone else's.

The big rows are written into a database of their own (so their words do not move the BM25
statistics other tests rank by), by COPY, with the HNSW indexes built after. They are chosen to
defeat a plain index scan: 175k shared turns (no vector) that match the question's words better
than any small-store turn, beyond the 100k a filtered BM25 scan goes; and 25k turns and 25k
items of one person whose vectors lie nearer the question than anything of the small store,
beyond the tuples an HNSW iterative scan visits (search.MAX_SCAN_TUPLES).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.core.question_times import question_windows
from memory_pipelines.store import entities as entities_db
from memory_pipelines.store import search as search_db
from memory_pipelines.store.db import Database
from tests.scratch_db import scratch_database

QUESTION = "Which lake did Mel paint at sunrise?"
SHARED_TEXT = "lake sunrise paint lake sunrise paint lake"
SHARED, NEAR = 175_000, 25_000  # 200k turns in the big store
SMALL = [
    "I painted the lake at sunrise last summer, it was so calm.",
    "The lake near our cabin is called Lake Tahoe.",
    "Sunrise is my favourite time to paint.",
    "We went camping with the kids in June.",
    "My dog Shadow sleeps on my bed.",
] + [f"Day {i}: work was busy and the trains were late again." for i in range(45)]
# A second speaker of the small store: the graph's candidates for a question naming Jo are
# Jo's nearest turns, found by the exact scan once the HNSW scan gives up among ben's.
JOS = [f"Jo fixed bike number {i} at the shop and went home." for i in range(40)]
# Ben's turns of one day (5 March 2024), far in meaning from his 25k others
DAY = datetime(2024, 3, 5, 10, tzinfo=UTC)
DATED = [
    "Drove to the coast and ate grilled fish.",
    "The boiler was serviced by a plumber.",
    "Paid the council tax bill online.",
]
ANAS = [  # ana's own items (not words of her chat: the save policy skips what history holds)
    "Ana painted a lake at sunrise on her holiday",
    "Ana's family cabin stands by Lake Tahoe",
    "Ana likes to paint early in the morning",
]


@pytest.fixture(scope="module")
def big(pg_dsn: str, embedder) -> Iterator[Database]:
    with scratch_database(pg_dsn, "scale") as dsn:
        db = Database(dsn)
        try:
            _fill(db, embedder)
            yield db
        finally:
            db.close()


def _fill(db: Database, embedder) -> None:
    qvec = embedder.embed_one(QUESTION)
    small = Memory("small", db=db, embedder=embedder)
    small.write_turns("c", [{"text": t, "speaker": "Mel"} for t in SMALL])
    small.write_turns("c2", [{"text": t, "speaker": "Jo"} for t in JOS])
    people = Memory("big", db=db, embedder=embedder)
    people.add_person("ana")
    people.add_person("ben")
    people.write_turns("ana-chat", [{"text": t} for t in SMALL[:12]], person="ana")
    for t in ANAS:
        saved = people.save({"category": "fact", "context": t, "confidence": 7, "person": "ana"})
        assert saved.saved, saved
    rng = np.random.default_rng(5)
    near = qvec + rng.standard_normal((NEAR, len(qvec))).astype(np.float32) * 0.01
    near /= np.linalg.norm(near, axis=1, keepdims=True)
    with db.connection() as conn:
        hnsw = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes"
            " WHERE indexname IN ('turns_embedding_hnsw', 'items_embedding_hnsw')"
        ).fetchall()
        for r in hnsw:  # built again after the rows are in: faster than row by row
            conn.execute(f"DROP INDEX {r['indexname']}")
        shared = conn.execute(
            "INSERT INTO chats (store_id, external_id, next_seq) VALUES ('big', 'shared', %s)"
            " RETURNING chat_id",
            (SHARED + 1,),
        ).fetchone()["chat_id"]
        bens = conn.execute(
            "INSERT INTO chats (store_id, external_id, person_id, next_seq)"
            " VALUES ('big', 'ben-chat', 'ben', %s) RETURNING chat_id",
            (NEAR + len(DATED) + 1,),
        ).fetchone()["chat_id"]
        conn.execute(
            "INSERT INTO turns (store_id, chat_id, seq, role, speaker, text, tsv, doc_len)"
            " SELECT 'big', %s, s, 'user', 'Sam', %s, to_tsvector('english', 'Sam ' || %s), 8"
            " FROM generate_series(1, %s) AS s",
            (shared, SHARED_TEXT, SHARED_TEXT, SHARED),
        )
        conn.execute("CREATE TEMP TABLE near_vecs (n int, embedding vector(384))")
        with (
            conn.cursor() as cur,
            cur.copy("COPY near_vecs (n, embedding) FROM STDIN WITH (FORMAT BINARY)") as cp,
        ):
            cp.set_types(["int4", "vector"])
            for i, v in enumerate(near):
                cp.write_row([i + 1, v])
        conn.execute(
            "INSERT INTO turns (store_id, chat_id, seq, role, text, embedding, tsv, doc_len)"
            " SELECT 'big', %s, n, 'user', 'ben talks about his week', embedding,"
            " to_tsvector('english', 'ben talks about his week'), 5 FROM near_vecs",
            (bens,),
        )
        for i, (text, vec) in enumerate(zip(DATED, embedder.embed(DATED), strict=True)):
            conn.execute(
                "INSERT INTO turns (store_id, chat_id, seq, role, text, embedding, tsv,"
                " doc_len, created_at) VALUES ('big', %s, %s, 'user', %s, %s,"
                " to_tsvector('english', %s), %s, %s)",
                (bens, NEAR + 1 + i, text, vec, text, len(text.split()), DAY),
            )
        conn.execute(
            "INSERT INTO agent_memory_items (store_id, person_id, category, context,"
            " confidence, origin, trusted, embedding)"
            " SELECT 'big', 'ben', 'fact', 'ben likes his week ' || n, 7, 'derived', true,"
            " embedding FROM near_vecs"
        )
        for r in hnsw:
            conn.execute(r["indexdef"])
        conn.execute("ANALYZE turns")
        conn.execute("ANALYZE agent_memory_items")


def _exact_nearest(db: Database, store: str, qvec: np.ndarray, n: int, person=None) -> list:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT turn_id FROM turns t JOIN chats c USING (chat_id) WHERE t.store_id = %s"
            " AND t.embedding IS NOT NULL AND (c.person_id IS NULL OR c.person_id = %s)"
            " ORDER BY (t.embedding <=> %s) + 0, turn_id LIMIT %s",
            (store, person, qvec, n),
        ).fetchall()
    return [r["turn_id"] for r in rows]


def test_a_small_store_beside_a_big_one_gets_its_candidates_and_k_results(
    big: Database, embedder
) -> None:
    qvec = embedder.embed_one(QUESTION)
    with big.connection() as conn:
        rows = search_db.candidates(conn, ["turn"], "small", QUESTION, qvec, None, 30)["turn"]
        ids = {r["id"] for r in rows}
        matching = conn.execute(
            "SELECT turn_id FROM turns WHERE store_id = 'small'"
            " AND tsv @@ to_tsquery('english', 'lake | sunrise | paint')"
        ).fetchall()
    assert {r["turn_id"] for r in matching} <= ids  # every turn matching a word
    assert set(_exact_nearest(big, "small", qvec, 30)) <= ids  # the 30 nearest, exactly
    assert all(r["lexical"] > 0 for r in rows if r["id"] in {m["turn_id"] for m in matching})
    hits = Recall("small", db=big, embedder=embedder).search(QUESTION, ["history"], k=10)
    assert len(hits) == 10
    assert any(h.text.startswith("I painted the lake at sunrise") for h in hits[:3])
    with big.connection() as conn:
        small_ids = {
            r["turn_id"] for r in conn.execute("SELECT turn_id FROM turns WHERE store_id = 'small'")
        }
    assert {h.id for h in hits} <= small_ids


def test_a_named_speakers_few_turns_beside_many_nearer_ones(big: Database, embedder) -> None:
    """The graph brings the nearest turns of the speaker named, however many nearer turns of
    others the table holds: by the speaker's index when the planner sees few of them, else by
    the HNSW scan and, when it gives up among ben's, the exact scan (Jo has fewer turns than
    MAX_SCAN_TUPLES)."""
    qvec = embedder.embed_one(QUESTION)
    with big.connection() as conn:
        rows = search_db.candidates(
            conn, ["turn"], "small", QUESTION, qvec, None, 30, names=["Jo"]
        )["turn"]
        jos = conn.execute(
            "SELECT turn_id FROM turns WHERE store_id = 'small' AND speaker = 'Jo'"
            " ORDER BY (embedding <=> %s) + 0, turn_id LIMIT 30",
            (qvec,),
        ).fetchall()
    assert len(jos) == 30
    assert {r["turn_id"] for r in jos} <= {r["id"] for r in rows}


def test_a_named_days_turns_beside_many_nearer_ones(big: Database, embedder) -> None:
    """A question naming a day brings that day's turns, however many nearer turns other days
    hold (ben's 25k): the HNSW scan within the day gives up among them, and the exact scan
    over the day's few rows finds them. They are ben's alone."""
    question = QUESTION.removesuffix("?") + " on 5 March 2024?"
    qvec = embedder.embed_one(question)
    windows = question_windows(question, datetime.now(UTC))
    with big.connection() as conn:
        day = {
            r["turn_id"]
            for r in conn.execute(
                "SELECT turn_id FROM turns WHERE store_id = 'big' AND created_at = %s", (DAY,)
            )
        }

        def found(person: str | None, windows: Any = windows) -> set[int]:
            rows = search_db.candidates(
                conn, ["turn"], "big", question, qvec, person, 30, windows=windows
            )["turn"]
            return {r["id"] for r in rows}

        assert len(day) == len(DATED)
        assert day <= found("ben")
        assert not day & found("ben", ())  # without the day: none among the nearest
        assert not day & (found("ana") | found(None))


def test_a_small_store_is_read_exactly_a_big_one_by_its_index(
    big: Database, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader of at most EXACT_ROWS rows of a kind is scanned exactly (its rows by store):
    beside a big store the table-wide HNSW scan visited MAX_SCAN_TUPLES of the big store's rows
    before it gave up (LoCoMo's six stores beside a million turns: search p95 31.4 -> 27.9 ms).
    A reader of many rows (ben, 25k turns) still has its nearest from the HNSW scan first; the
    rows counted are the reader's, not the store's (a reader with no person sees only the
    shared chat, whose turns are not embedded). Read as `candidates` runs it."""
    from memory_pipelines.store import search_sql

    qvec = embedder.embed_one(QUESTION)
    made: dict[str, str] = {}

    def statement(kind: str, *args: Any, **kwargs: Any) -> str:
        made[kind] = search_sql.statement(kind, *args, **kwargs)
        return made[kind]

    monkeypatch.setattr(search_db, "statement", statement)

    def plan(store: str, person: str | None = None) -> str:
        with big.connection() as conn:
            search_db.candidates(conn, ["turn"], store, QUESTION, qvec, person, 30)
            found = search_db.words(conn, ["turn"], store, QUESTION, person, 30)
            params = search_db._params(store, QUESTION, qvec, person, 30, (), None)
            params |= search_db._lex(found, "turn")
            with conn.transaction():
                caps = search_db.capabilities(conn)
                conn.execute(f"SELECT {search_db.scan_settings(caps)}", params)
                rows = conn.execute("EXPLAIN " + made["turn"], params).fetchall()
        return "\n".join(str(next(iter(r.values()))) for r in rows)

    small, large = plan("small"), plan("big", "ben")
    assert "turns_embedding_hnsw" not in small and "near_idx" not in small
    assert "CTE near_idx" in large  # the index scan, then the exact one if it gives up


def test_candidates_plan_without_jit_for_their_transaction_only(big: Database, embedder) -> None:
    """A server built with LLVM would JIT-compile a costly-looking plan (tens of ms) for rows
    bounded by the indexes: candidates turns JIT off, for its own statements only."""
    qvec = embedder.embed_one(QUESTION)
    with big.connection() as conn:
        before = conn.execute("SELECT current_setting('jit') AS v").fetchone()["v"]
        with conn.transaction():
            search_db.candidates(conn, ["turn"], "small", QUESTION, qvec, None, 30)
            inside = conn.execute("SELECT current_setting('jit') AS v").fetchone()["v"]
        after = conn.execute("SELECT current_setting('jit') AS v").fetchone()["v"]
    assert inside == "off"
    assert after == before


def test_a_persons_few_records_beside_anothers_many(big: Database, embedder) -> None:
    recall = Recall("big", db=big, embedder=embedder)
    qvec = embedder.embed_one(QUESTION)
    turns = recall.search(QUESTION, ["history"], person="ana", k=10)
    assert len(turns) == 10  # ana's chat holds 12 turns; ben's 25k nearer ones stay his
    assert all(h.extra["chat"] == "ana-chat" for h in turns)
    assert {h.id for h in turns} >= set(_exact_nearest(big, "big", qvec, 3, "ana"))
    items = recall.search(QUESTION, ["agent"], person="ana", k=5)
    assert len(items) == 3 and all(h.extra["person_id"] == "ana" for h in items)
    # without a person only shared records: no turn of either chat, no item of either
    assert recall.search(QUESTION, ["agent"], k=5) == []


def test_entity_names_are_the_stores_own(db: Database, embedder: Any) -> None:
    """A word is an entity of a store when that store's speakers or current items name it: an
    item of another store naming it does not count (migration 017)."""
    a, b = Memory("ents-a", db=db, embedder=embedder), Memory("ents-b", db=db, embedder=embedder)
    a.write_turn("c1", "I moved the boat to the marina.", speaker="Oskar")
    b.save({"category": "fact", "context": "Ilse keeps bees in Leeds", "entities": ["Ilse"]})
    with db.connection() as conn:
        assert entities_db.entity_names(conn, "ents-a", ["Oskar", "Ilse", "What"]) == ["Oskar"]
        assert entities_db.entity_names(conn, "ents-b", ["Oskar", "Ilse", "What"]) == ["Ilse"]
        assert entities_db.entity_names(conn, "ents-b", ["oskar"]) == []
        assert entities_db.entity_names(conn, "ents-a", []) == []


def test_entity_lookup_leaves_the_callers_settings(db: Database) -> None:
    """Inside a caller's transaction (an audited search) the lookup's planner setting does not
    outlive it."""
    with db.connection() as conn, conn.transaction():
        entities_db.entity_names(conn, "ents-none", ["What"])
        row = conn.execute("SELECT current_setting('enable_seqscan') AS v").fetchone()
    assert row is not None and row["v"] == "on"


def test_kinds_beside_each_other_give_what_one_connection_gives(big: Database, embedder) -> None:
    """With a spare connection the items' statement runs beside the turns' (Recall.search does
    so); the rows are the same as on one connection, and so when no connection is free."""
    qvec = embedder.embed_one(QUESTION)
    lent: list[bool] = []

    @contextmanager
    def spare() -> Iterator[Any]:
        with big.spare() as conn:
            lent.append(conn is not None)
            yield conn

    @contextmanager
    def none_free() -> Iterator[None]:
        yield None

    args = (["item", "turn"], "big", QUESTION, qvec, "ana", 30)
    with big.connection(), big.connection():  # two made (the pool keeps them)
        pass
    with big.connection() as conn:
        alone = search_db.candidates(conn, *args)
        beside = search_db.candidates(conn, *args, spare=spare)
        fallback = search_db.candidates(conn, *args, spare=none_free)
    assert lent == [True]
    assert alone["item"] and alone["turn"]
    # a turn says where it is (for a summary's support in ranking)
    assert all(r["chat_id"] and r["from_seq"] == r["to_seq"] is not None for r in alone["turn"])
    for kind in ("item", "turn"):
        assert sorted(r["id"] for r in beside[kind]) == sorted(r["id"] for r in alone[kind])
        assert sorted(r["id"] for r in fallback[kind]) == sorted(r["id"] for r in alone[kind])
    assert {r["id"] for r in beside["item"]} <= _person_items(big, "ana")


def _person_items(db: Database, person: str) -> set[int]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT item_id FROM agent_memory_items WHERE person_id = %s", (person,)
        ).fetchall()
    return {r["item_id"] for r in rows}


def test_a_spare_connection_is_never_waited_for(pg_dsn: str) -> None:
    """Database.spare lends a free connection, and none (at once) while the pool is taken:
    searches that each hold a connection never wait for a second one."""
    db = Database(pg_dsn, max_size=1)
    try:
        with db.connection():  # the pool's one connection, made
            pass
        with db.spare() as conn:
            assert conn is not None
            assert conn.execute("SELECT 1 AS one").fetchone()["one"] == 1
        with db.connection(), db.spare() as none:
            assert none is None
    finally:
        db.close()


def test_words_read_before_the_vector_are_the_readers_own(big: Database, embedder) -> None:
    """The BM25 index's candidates, read while the query is embedded (search.words), are rows
    the reader may see: ben's 25k turns and items, which hold the question's words, reach
    neither ana nor a reader with no person; ben finds his own. Given to candidates, they
    give what candidates finds on its own. Ana and the reader with no person may read fewer
    than EXACT_ROWS rows, so their words are ranked in SQL unless the index is asked for
    (exact_rows=0), as here."""
    question = "What did ben say about his week?"
    with big.connection() as conn:
        caps = search_db.capabilities(conn)
        if not caps.bm25:
            pytest.skip("the server has no pg_textsearch: words are ranked in SQL")
        turns = conn.execute(
            "SELECT turn_id AS id FROM turns t JOIN chats c USING (chat_id)"
            " WHERE t.store_id = 'big' AND c.person_id = 'ben'"
        ).fetchall()
        items = conn.execute(
            "SELECT item_id AS id FROM agent_memory_items"
            " WHERE store_id = 'big' AND person_id = 'ben'"
        ).fetchall()
        bens = {("turn", r["id"]) for r in turns} | {("item", r["id"]) for r in items}
        found = {
            person: search_db.words(
                conn, ["item", "turn"], "big", question, person, 30, exact_rows=0
            )
            for person in ("ana", None, "ben")
        }
        assert not search_db.words(conn, ["item", "turn"], "big", question, "ana", 30).indexed
        qvec = embedder.embed_one(question)
        given = search_db.candidates(
            conn,
            ["item", "turn"],
            "big",
            question,
            qvec,
            "ana",
            30,
            exact_rows=0,
            found_words=found["ana"],
        )
        alone = search_db.candidates(
            conn, ["item", "turn"], "big", question, qvec, "ana", 30, exact_rows=0
        )
    assert len(bens) == 2 * NEAR + len(DATED)
    assert set(found["ana"].indexed) == {"item", "turn"}  # both kinds ranked by the index
    assert not found[None].indexed  # it may read no embedded turn and no item here
    for person in ("ana", None):
        for kind, ids in found[person].indexed.items():
            assert not {(kind, i) for i in ids} & bens, (person, kind)
    for kind, ids in found["ben"].indexed.items():
        assert len(ids) == 30 and {(kind, i) for i in ids} <= bens
    for kind in ("item", "turn"):
        assert given[kind] == alone[kind]
        assert not {(kind, r["id"]) for r in given[kind]} & bens
