"""Property: no sequence of writes and recalls ever returns another person's record."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_pipelines.api import Memory, Recall

PEOPLE = ["ana", "ben", None]
FACTS = [
    "likes green tea",
    "drives a blue van",
    "is allergic to cats",
    "plays the cello",
    "runs on Sundays",
    "works at the harbour office",
]

writes = st.lists(
    st.tuples(st.sampled_from(PEOPLE), st.sampled_from(FACTS)), min_size=1, max_size=6
)
reads = st.lists(st.tuples(st.sampled_from(PEOPLE), st.sampled_from(FACTS)), min_size=1, max_size=4)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(writes=writes, reads=reads)
def test_no_recall_returns_another_persons_record(db, embedder, writes, reads) -> None:
    store = f"iso-{uuid.uuid4().hex[:10]}"
    memory = Memory(store, db=db, embedder=embedder)
    recall = Recall(store, db=db, embedder=embedder)
    for p in ("ana", "ben"):
        memory.add_person(p)
        memory.write_turn(f"chat-{p}", f"{p} says hello about {FACTS[0]}", person=p)
    owner: dict[int, str | None] = {}
    for person, fact in writes:
        name = person or "everyone"
        res = memory.save(
            {
                "category": "fact",
                "context": f"{name.title()} {fact}",
                "confidence": 7,
                "person": person,
            }
        )
        if res["saved"]:
            owner[res["id"]] = person
    for reader, query in reads:
        hits = recall.search(query, ["agent", "history"], person=reader, k=20)
        seen = [h.id for h in hits if h.kind == "item"]
        seen += [r["id"] for r in recall.hydrate([f"item:{i}" for i in owner], person=reader)]
        seen += [
            r["id"]
            for r in recall.by_period("2000-01-01", "2100-01-01", person=reader)
            if r["kind"] == "item"
        ]
        for item_id in seen:
            assert owner[item_id] in (None, reader), (reader, item_id, owner[item_id])
        for h in hits:  # a person's chat is read only in that person's recalls
            if h.kind == "turn":
                assert h.extra["chat"] == f"chat-{reader}", (reader, h.extra["chat"])
