"""Isolation as a property of the whole system: a hypothesis state machine drives every write
path (turns, save, save with dedup, a promise reported kept, edges, extraction, the pyramid,
links, maintenance with contradiction checks, decay, reflection, evolution, documents, deletes)
for two persons and the shared space, and after every step reads through every read path as
each person and as nobody. No text and no id of a person ever reaches anybody else (issue 10,
point 5)."""

from __future__ import annotations

import contextlib
import itertools
import json
import uuid
from collections.abc import Iterator
from dataclasses import asdict, is_dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from pydantic import BaseModel

from memory_pipelines.api import Memory, Recall, evolution, links, maintenance, pyramid, reflection
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.api.decay import score_store
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.links import SYMMETRIC
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store import search as search_db

PERSONS = ("ana", "bob")
WHO = st.sampled_from([*PERSONS, None])
# Each person's words carry their own marker, so any of them reaching another reader is seen.
MARK = {"ana": "quokkaana", "bob": "wombatbob", None: "sharedkoala"}
SENTENCES = (
    "I keep my {m} savings at Orbital bank and the PIN is 4321.",
    "My {m} therapist appointment is every Tuesday at nine.",
    "We decided to move the {m} deploy to Thursday because of the freeze.",
    "I prefer the {m} reports by email, never by phone.",
    "I promised Rita to send the {m} contract by June 10.",
    "Actually the {m} meeting is on March 10, not March 3.",
    "I'm allergic to peanuts and the {m} clinic knows it.",
    "My {m} dose is 50 mg, sorry, 100 mg.",  # a repair on the go (core/corrections.repair)
    # a promise's "it" read from the talk before it (core/promised_thing.py)
    "Did you find my {m} stove? I'll bring it back to you on Friday.",
    # an emoji ends a sentence, a hedged clause is cut from a firm one (core/hedges.py)
    "My {m} landlord sold the flat 😭 and he is probably moving to Spain",
)
QUESTIONS = (
    "What is the PIN?",
    "When is the therapist appointment?",
    "When is deploy day?",
    "How should reports be sent?",
    "What did I promise Rita?",
    # names both persons' speakers, so the search's named-speaker scan runs for each reader
    "What did Ana and Bob say about the PIN?",
    # names a time (today), so each kind's candidates of that time are read too
    "What was said about the PIN today?",
)

# Fields of read results that hold ids, and the kind of record they name.
_ID_FIELDS = {
    "item_id": "item",
    "turn_id": "turn",
    "chunk_id": "chunk",
    "chat_id": "chat",
    "passage_id": "document",
    "superseded_by": "item",
    "mergedInto": "item",
    "merged_into": "item",
    "by": "item",
    "with": "item",
}
_ID_LISTS = {"fed_by": "item", "contested_with": "item", "merged": "item", "children": None}


def refs_in(value: Any, out: set[tuple[str, int]] | None = None) -> set[tuple[str, int]]:
    """Every (kind, id) a read result names, wherever it sits."""
    out = set() if out is None else out
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    if isinstance(value, dict):
        if isinstance(value.get("kind"), str) and isinstance(value.get("id"), int):
            out.add((_kind(value["kind"]), value["id"]))
        if isinstance(value.get("kind"), str) and isinstance(value.get("target"), int):
            out.add((_kind(value["kind"]), value["target"]))
        for key, v in value.items():
            if key in _ID_FIELDS and isinstance(v, int) and not isinstance(v, bool):
                out.add((_ID_FIELDS[key], v))
            elif key in _ID_LISTS and isinstance(v, list) and _ID_LISTS[key]:
                out.update((str(_ID_LISTS[key]), i) for i in v if isinstance(i, int))
            elif key in ("ref", "hit_ids") or (isinstance(v, str) and key == "drill_down"):
                for s in v if isinstance(v, list) else [v]:
                    kind, _, num = str(s).partition(":")
                    if num.strip('")').isdigit():
                        out.add((_kind(kind.split('"')[-1]), int(num.strip('")'))))
            refs_in(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            refs_in(v, out)
    return out


def _kind(kind: str) -> str:
    return "document" if kind == "email" else kind


def words_paths(db: Any) -> Iterator[str]:
    """Runs the loop body once per way a search finds its candidates by words: ranked in SQL,
    then (on a server with pg_textsearch) from the BM25 index, as past EXACT_ROWS rows."""
    yield "sql"
    with db.connection() as conn:
        if not search_db.capabilities(conn).bm25:
            return
    saved = search_db.EXACT_ROWS
    search_db.EXACT_ROWS = 0
    try:
        yield "index"
    finally:
        search_db.EXACT_ROWS = saved


class Isolation(RuleBasedStateMachine):
    db: Any
    embedder: Any

    @initialize()
    def start(self) -> None:
        self.store = f"iso-{uuid.uuid4().hex[:10]}"
        self.memory = Memory(self.store, db=self.db, embedder=self.embedder)
        self.recall = Recall(self.store, db=self.db, embedder=self.embedder)
        self.models = Models(LocalBackend(self.embedder))
        for p in PERSONS:
            self.memory.add_person(p)
        self.memory.configure(
            maintenance={"check_contradictions": True, "duplicate_threshold": 0.8},
            extraction={"min_messages": 1},
        )
        with self.db.connection() as conn:  # reflection's insights reach search when active
            conn.execute(
                "INSERT INTO job_activations (store_id, job, active, activated_at, passed,"
                " forced, actor) VALUES (%s, 'reflection', true, now(), true, true, 'test'),"
                " (%s, 'decay', true, now(), true, true, 'test')",
                (self.store, self.store),
            )
        self.seq = {p: 0 for p in [*PERSONS, None]}
        self.counter = itertools.count()
        for p in [*PERSONS, None]:
            self.write_turn(p, 0)

    @staticmethod
    def chat(person: str | None) -> str:
        return f"chat-{person or 'shared'}"

    def text(self, person: str | None, i: int) -> str:
        return SENTENCES[i % len(SENTENCES)].format(m=f"{MARK[person]}{next(self.counter)}")

    # ---- write paths ------------------------------------------------------------------------

    @rule(person=WHO, i=st.integers(0, 20))
    def write_turn(self, person: str | None, i: int) -> None:
        speaker = (person or "Sam").title()  # the extractor rewrites "I" as the speaker
        self.memory.write_turn(
            self.chat(person), self.text(person, i), person=person, speaker=speaker
        )
        self.seq[person] += 1

    @rule(person=WHO)
    def answer_a_question(self, person: str | None) -> None:
        # A short answer is saved with the question it answers (core/across_turns.py): the
        # item quotes the assistant's turn, which carries the person's marker.
        mark = f"{MARK[person]}{next(self.counter)}"
        chat = self.chat(person)
        self.memory.write_turn(chat, f"How long have you had the {mark} bike?", role="assistant",
                               person=person)  # fmt: skip
        self.memory.write_turn(
            chat, "Six years, no, seven.", person=person, speaker=(person or "Sam").title()
        )
        self.seq[person] += 2

    @rule(person=WHO, i=st.integers(0, 20), in_chat=st.booleans(), share=st.booleans())
    def save(self, person: str | None, i: int, in_chat: bool, share: bool) -> None:
        # An item saved in a person's chat may still be shared (the application chose to share
        # these words, so they carry the shared marker): its provenance is the person's.
        words = self.text(None if share else person, i)
        item = {"category": "fact", "context": words, "confidence": 7}
        if share:
            item["person"] = None
        elif not in_chat:
            item["person"] = person
        where = {"chat": self.chat(person), "turn_seq": self.seq[person]} if in_chat else {}
        self.memory.save(item, **where)

    @rule(person=WHO, i=st.integers(0, 20))
    def save_with_dedup(self, person: str | None, i: int) -> None:
        self.memory.save_with_dedup(
            {"category": "fact", "context": self.text(person, i), "person": person}
        )

    @rule(owner=WHO, reporter=WHO)
    def promise_then_report_it_kept(self, owner: str | None, reporter: str | None) -> None:
        # A promise reported kept closes it (core/fulfilment.py), only for its own person:
        # the same words from another person close nothing of theirs.
        promised = self.memory.save(
            {"category": "commitment", "confidence": 8, "person": owner,
             "context": f"Sam will send the {MARK[owner]}{next(self.counter)} report to Rita"}
        )  # fmt: skip
        report = self.memory.save_with_dedup(
            {"category": "fact", "confidence": 7, "person": reporter,
             "context": f"Sam sent the {MARK[reporter]}{next(self.counter)} report to Rita"}
        )  # fmt: skip
        assert promised.id is not None
        if reporter != owner:
            assert report.fulfilled is None
            assert self.memory.get(promised.id).status == "open"

    @rule(owner=WHO, caller=WHO)
    def promise_then_call_it_off(self, owner: str | None, caller: str | None) -> None:
        # A promise called off is cancelled (core/called_off.py), only for its own person:
        # the same words from another person cancel nothing of theirs.
        n = next(self.counter)
        promised = self.memory.save(
            {"category": "commitment", "confidence": 8, "person": owner,
             "context": f"Sam will bring the projector to workshop w{n}"}
        )  # fmt: skip
        said = self.memory.save_with_dedup(
            {"category": "fact", "confidence": 7, "person": caller,
             "context": f"Workshop w{n} got cancelled"}
        )  # fmt: skip
        assert promised.id is not None
        if caller != owner:
            assert said.cancelled is None
            assert self.memory.get(promised.id).status == "open"

    @rule(person=WHO, other=WHO)
    def save_with_edge(self, person: str | None, other: str | None) -> None:
        targets = self.memory.items(person=other, state=None) if other else []
        if not targets:
            return
        item = {
            "category": "decision",
            "context": self.text(person, 2),
            "person": person,
            "edges": [{"type": "relates_to", "kind": "item", "target": targets[0].item_id}],
        }
        if other == person:
            self.memory.save(item)
        else:
            with pytest.raises(ValidationError, match="edges"):
                self.memory.save(item)

    @rule(person=WHO, i=st.integers(0, 20))
    def add_document(self, person: str | None, i: int) -> None:
        self.memory.add_document(
            f"doc-{next(self.counter)}", self.text(person, i), kind="email" if i % 2 else "basic",
            sender="someone@example.com", person=person,
        )  # fmt: skip

    @rule(person=WHO, i=st.integers(0, 20))
    def add_document_under_a_taken_id(self, person: str | None, i: int) -> None:
        # Another's id is never theirs to replace; a shared one may become a person's.
        with self.db.connection() as conn:
            taken = conn.execute(
                "SELECT DISTINCT external_id, kind, person_id FROM documents WHERE store_id = %s"
                " ORDER BY external_id LIMIT 1 OFFSET %s",
                (self.store, i % 3),
            ).fetchone()
        if taken is None:
            return
        owner, add = taken["person_id"], self.memory.add_document
        args = (taken["external_id"], self.text(person, i))
        if owner == person or (owner is None and person is not None):
            add(*args, kind=taken["kind"], person=person)
        else:
            with pytest.raises(ValidationError, match="external_id"):
                add(*args, kind=taken["kind"], person=person)

    @rule()
    def extract(self) -> None:
        run_extraction(self.db, self.store, self.models, self.embedder, "iso")

    @rule()
    def background_jobs(self) -> None:
        pyramid.rollup(self.db, self.store, self.models, self.embedder, batch_size=2)
        links.link_pending(self.db, self.store, self.models)
        score_store(self.db, self.store)
        maintenance.maintain(self.db, self.store, lambda: self.models)
        reflection.reflect(self.db, self.store, self.models, self.embedder)
        evolution.evolve(self.db, self.store)

    @rule(person=WHO)
    def delete_one(self, person: str | None) -> None:
        items = self.memory.items(person=person) if person else []
        if items:
            self.memory.delete(items[-1].item_id, actor="test")

    # ---- read paths -------------------------------------------------------------------------

    def owned(self) -> dict[str, set[tuple[str, int]]]:
        """Each person's records by (kind, id), read straight from the tables."""
        out: dict[str, set[tuple[str, int]]] = {p: set() for p in PERSONS}
        with self.db.connection() as conn:
            for kind, sql in (
                ("item", "SELECT person_id AS p, item_id AS id FROM agent_memory_items"
                 " WHERE store_id = %s"),
                ("chat", "SELECT person_id AS p, chat_id AS id FROM chats WHERE store_id = %s"),
                ("turn", "SELECT c.person_id AS p, t.turn_id AS id FROM turns t"
                 " JOIN chats c USING (chat_id) WHERE t.store_id = %s"),
                ("chunk", "SELECT c.person_id AS p, k.chunk_id AS id FROM chunks k"
                 " JOIN chats c USING (chat_id) WHERE k.store_id = %s"),
                ("document", "SELECT person_id AS p, passage_id AS id FROM documents"
                 " WHERE store_id = %s"),
            ):  # fmt: skip
                for r in conn.execute(sql, (self.store,)):
                    if r["p"] is not None:
                        out[r["p"]].add((kind, int(r["id"])))
        return out

    def everything(self) -> list[str]:
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT 'item:' || item_id AS r FROM agent_memory_items WHERE store_id = %(s)s"
                " UNION ALL SELECT 'turn:' || turn_id FROM turns WHERE store_id = %(s)s"
                " UNION ALL SELECT 'chunk:' || chunk_id FROM chunks WHERE store_id = %(s)s"
                " UNION ALL SELECT 'document:' || passage_id FROM documents"
                "   WHERE store_id = %(s)s AND kind = 'basic'"
                " UNION ALL SELECT 'email:' || passage_id FROM documents"
                "   WHERE store_id = %(s)s AND kind = 'email'",
                {"s": self.store},
            ).fetchall()
        return [r["r"] for r in rows]

    def reads(self, reader: str | None) -> list[Any]:
        """What every read path gives this reader."""
        out: list[Any] = []
        chat = self.chat(reader)
        # Words are ranked in SQL in a store this small; the searches are read again with
        # every kind's words taken from the BM25 index (the path of big stores), when the
        # server has pg_textsearch.
        for _path in words_paths(self.db):
            for i, q in enumerate(QUESTIONS):
                scope = ("agent", "history", "basic", "email")[i % 4]
                out.append(self.recall.search(q, [scope], person=reader, k=20))
                everywhere = ["agent", "history", "basic", "email"]
                out.append(self.recall.search(q, everywhere, person=reader))
                out.append(autorecall(self.recall, chat, q, person=reader, budget_tokens=2000))
        out.append(self.memory.boot_window(chat, 4000, reader=reader))
        out.append(self.recall.by_period("2000-01-01", "2100-01-01", person=reader, limit=5000))
        refs = self.everything()
        out.append(self.recall.hydrate(refs, person=reader))
        for ref in refs:
            for read in (self.recall.neighbors, self.recall.drill_down):
                with contextlib.suppress(NotFound):
                    out.append(read(ref, person=reader))
        out.append(self.memory.items(reader=reader, state=None, limit=1000))
        out.append(self.memory.commitments(reader=reader))
        for item in self.memory.items(state=None, limit=1000):
            with contextlib.suppress(NotFound):
                out.append(self.memory.history(item.item_id, reader=reader))
        out.append(list(self.memory.subscribe(0, reader=reader, idle_timeout=0.05)))
        return out

    def links_across_persons(self) -> list[dict[str, Any]]:
        """Stored links whose far end the near end's reader may not read (a shared item tied
        to a chunk of Ana's chat, an item of Ana's to one of Bob's), read from the tables. A
        symmetric link (relates_to) is stored smaller id first, whichever end found the other:
        between a shared record and Ana's it was found from hers (a shared item's candidates
        are shared only, tests/test_links.py), so only two persons' ends break it."""
        with self.db.connection() as conn:
            return conn.execute(
                "WITH ends AS (SELECT 'item' AS kind, item_id AS id, person_id AS p"
                "   FROM agent_memory_items WHERE store_id = %(s)s"
                " UNION ALL SELECT 'chunk', k.chunk_id, c.person_id FROM chunks k"
                "   JOIN chats c USING (chat_id) WHERE k.store_id = %(s)s"
                " UNION ALL SELECT 'turn', t.turn_id, c.person_id FROM turns t"
                "   JOIN chats c USING (chat_id) WHERE t.store_id = %(s)s)"
                " SELECT l.src_kind, l.src_id, l.dst_kind, l.dst_id, a.p AS src_p, b.p AS dst_p"
                " FROM links l JOIN ends a ON a.kind = l.src_kind AND a.id = l.src_id"
                " JOIN ends b ON b.kind = l.dst_kind AND b.id = l.dst_id"
                " WHERE l.store_id = %(s)s AND b.p IS NOT NULL AND b.p IS DISTINCT FROM a.p"
                " AND NOT (l.link_type = ANY(%(symmetric)s) AND a.p IS NULL)",
                {"s": self.store, "symmetric": list(SYMMETRIC)},
            ).fetchall()

    # Reading through everything costs seconds, so it is a step of its own (hypothesis places
    # it anywhere in a run) and it ends every run.
    @rule()
    def nothing_of_a_person_reaches_anybody_else(self) -> None:
        assert not self.links_across_persons()
        owned = self.owned()
        for reader in (*PERSONS, None):
            seen = self.reads(reader)
            text = json.dumps(seen, default=lambda v: asdict(v) if is_dataclass(v) else str(v))
            ids = refs_in(seen)
            for other in PERSONS:
                if other == reader:
                    continue
                assert MARK[other] not in text.lower(), f"{reader} read {other}'s words"
                leaked = ids & owned[other]
                assert not leaked, f"{reader} was shown {other}'s records {sorted(leaked)}"

    def teardown(self) -> None:
        if hasattr(self, "store"):
            self.nothing_of_a_person_reaches_anybody_else()


def test_nothing_of_a_person_reaches_anybody_else(db: Any, embedder: Any) -> None:
    Isolation.db, Isolation.embedder = db, embedder
    run = Isolation.TestCase
    run.settings = settings(
        max_examples=5,
        stateful_step_count=10,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking costs minutes here
    )
    run().runTest()


def test_refs_in_finds_ids_wherever_they_sit() -> None:
    found = refs_in(
        [
            {"kind": "turn", "id": 3, "chat_id": 9},
            {"edges": [{"type": "relates_to", "kind": "item", "target": 4}], "fed_by": [5]},
            {"ref": "chunk:6", "drill_down": 'r.drill_down("turn:7")', "payload": {"by": 8}},
        ]
    )
    assert found == {
        ("turn", 3),
        ("chat", 9),
        ("item", 4),
        ("item", 5),
        ("chunk", 6),
        ("turn", 7),
        ("item", 8),
    }


def test_a_document_id_of_one_person_is_never_another_persons_to_replace(
    memory: Memory,
) -> None:
    memory.add_person("ana")
    memory.add_person("bob")
    memory.add_document("notes", "Ana's passport number is kept in the blue folder.", person="ana")
    for person in ("bob", None):  # Bob, or a shared document, may not take her id
        with pytest.raises(ValidationError) as err:
            memory.add_document("notes", "Bob's shopping list: eggs and milk.", person=person)
        assert err.value.field == "external_id" and "another person's" in str(err.value)
        assert "ana" not in str(err.value)  # the refusal never names whose it is
    with memory.db.connection() as conn:
        left = conn.execute(
            "SELECT person_id, text FROM documents WHERE store_id = %s AND external_id = 'notes'",
            (memory.store_id,),
        ).fetchall()
    assert [(r["person_id"], r["text"][:5]) for r in left] == [("ana", "Ana's")]
    # her own document she replaces as before
    memory.add_document("notes", "Ana's passport is now in the safe.", person="ana")
    with memory.db.connection() as conn:
        text = conn.execute(
            "SELECT text FROM documents WHERE store_id = %s AND external_id = 'notes'",
            (memory.store_id,),
        ).fetchone()["text"]
    assert "safe" in text
    # a shared document may be taken back as one person's, never the other way
    memory.add_document("menu", "Friday lunch is soup.")
    memory.add_document("menu", "Bob's own menu plan.", person="bob")
    with pytest.raises(ValidationError):
        memory.add_document("menu", "Shared again.")


def test_two_writers_of_one_new_document_id_for_two_persons_never_take_each_others(
    memory: Memory,
) -> None:
    import threading

    import numpy as np

    from memory_pipelines.store.documents import replace_document

    memory.add_person("ana")
    memory.add_person("bob")
    vec = np.asarray([memory.embedder.embed_one("a note")])
    second: list[BaseException | None] = []

    def bob_writes() -> None:
        try:
            with memory.db.transaction() as conn:
                replace_document(
                    conn, memory.store_id, "basic", "notes", "", ["bob's"], vec, person_id="bob"
                )
            second.append(None)
        except BaseException as exc:  # noqa: BLE001 - the test reads what it was
            second.append(exc)

    with memory.db.transaction() as conn:  # Ana's write is under way when Bob's starts
        replace_document(
            conn, memory.store_id, "basic", "notes", "", ["ana's"], vec, person_id="ana"
        )
        bob = threading.Thread(target=bob_writes)
        bob.start()
        bob.join(timeout=1.0)
        assert bob.is_alive()  # Bob waits for Ana's write to end
    bob.join(timeout=30)
    assert isinstance(second[0], ValidationError) and second[0].field == "external_id", second
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT person_id, text FROM documents WHERE store_id = %s", (memory.store_id,)
        ).fetchall()
    assert [(r["person_id"], r["text"]) for r in rows] == [("ana", "ana's")]
