"""Reflection clusters each person's never-recalled records on their own (an audit's probes,
which failed): clustered in one graph of the whole store, edges never joined two persons, but
Louvain's modularity used the whole graph's total edge weight and its seeded node order ran
over every node, so which of ben's records made ben's insights depended on how many private
records ana held, on topics unrelated to his; and the store's 3000 newest never-recalled
records were read before splitting by person, so one person's newer records crowded out
everyone else's."""

from __future__ import annotations

import json
from typing import Any

from memory_pipelines.api.memory import Memory
from memory_pipelines.api.reflection import reflect
from memory_pipelines.core.records import validate_item
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import items as items_db
from memory_pipelines.store.db import Database
from tests.api_server import new_org, new_store

BEN = [
    "Ben prefers morning meetings before 10am",
    "Ben does not want meetings on Fridays",
    "Ben asked to keep standups short, under 15 minutes",
    "Ben wants meeting invites sent a day ahead",
    "Ben likes agendas attached to every meeting",
    "Ben books the big meeting room on Mondays",
    "Ben's team standup is at 9:15 in room 4",
    "Ben prefers video calls over phone calls for meetings",
    "Ben wants the weekly meeting notes in the wiki",
    "Ben skips lunch meetings",
    "Ben reviews the sprint board every Tuesday morning",
    "Ben's one-to-one with his manager is on Thursdays",
    "Ben wants Friday afternoons free of meetings for deep work",
    "Ben's calendar blocks 12 to 1 for lunch",
]
# ana's private notes, on another topic entirely
ANA = [
    f"Ana's garden note {i}: the tomatoes in bed {i} need watering every {i % 3 + 1} days"
    for i in range(10)
]


def _records(db: Database, embedder: Embedder, store: str, texts: list[str], person: str) -> None:
    vecs = embedder.embed(texts)
    with db.transaction() as conn:
        for t, v in zip(texts, vecs, strict=True):
            items_db.insert_item(
                conn,
                store,
                validate_item({"category": "fact", "confidence": 8, "context": t,
                               "person": person}),
                v,
                origin="explicit",
                trusted=True,
            )  # fmt: skip


def _bens_insights(m: Memory) -> list[list[str]]:
    """Ben's current insights as the sorted contexts of the records they were made from."""
    out = []
    for ins in m.items(reader="ben", category="insight", person="ben"):
        out.append(sorted(m.get(i).context for i in ins.fed_by))
    return sorted(out)


def _store(db: Database, embedder: Embedder) -> Memory:
    store = new_store(db, new_org(db))
    m = Memory(store, db=db, embedder=embedder)
    m.add_person("ana")
    m.add_person("ben")
    _records(db, embedder, store, BEN, "ben")
    return m


def test_bens_insights_do_not_depend_on_anas_private_records(
    db: Database, embedder: Embedder
) -> None:
    """Two stores with the very same records of ben's; the second also holds ten private
    records of ana's about her garden. Ben's insights should be the same in both."""
    alone, beside = _store(db, embedder), _store(db, embedder)
    _records(db, embedder, beside.store_id, ANA, "ana")
    for m in (alone, beside):
        reflect(db, m.store_id, m.models, embedder)
    a, b = _bens_insights(alone), _bens_insights(beside)
    assert a, "ben's records make insights"
    assert a == b, json.dumps({"ben alone": a, "ben beside ana's garden notes": b}, indent=1)


def test_anas_private_writes_change_bens_insights_and_feed(
    db: Database, embedder: Embedder
) -> None:
    """One store over time: ben's insights are made; then ana writes ten private garden notes
    and reflection runs again. Nothing of ben's changed, so nothing of his should move."""
    m = _store(db, embedder)
    reflect(db, m.store_id, m.models, embedder)
    before = _bens_insights(m)
    assert before
    last = max((e.event_id for e in m.subscribe(0, reader="ben", idle_timeout=0.3)), default=0)
    _records(db, embedder, m.store_id, ANA, "ana")
    out: dict[str, Any] = reflect(db, m.store_id, m.models, embedder)
    after = _bens_insights(m)
    news = [(e.kind, e.item_id) for e in m.subscribe(last, reader="ben", idle_timeout=0.3)]
    assert (after, news) == (before, []), json.dumps(
        {"before": before, "after": after, "bens_new_events": news, "run": out},
        indent=1,
        default=str,
    )


def test_anas_newer_private_records_crowd_bens_out_of_reflection(
    db: Database, embedder: Embedder
) -> None:
    """The newest MAX_ITEMS (3000) never-recalled records are read per person: a person with
    that many newer private records leaves the others theirs. Scaled down (plan()'s
    max_items; reflect() passes 3000): ben's three records, then ana's ten newer private
    ones, with a cap of ten."""
    from memory_pipelines.api.reflection import plan

    store = new_store(db, new_org(db))
    m = Memory(store, db=db, embedder=embedder)
    m.add_person("ana")
    m.add_person("ben")
    _records(db, embedder, store, BEN[:3], "ben")
    with db.connection() as conn:
        alone, _, _ = plan(conn, store, m.models, max_items=10)
    _records(db, embedder, store, ANA, "ana")
    with db.connection() as conn:
        beside, stats, _ = plan(conn, store, m.models, max_items=10)
    bens = [sorted(x.context for x in p.members) for p in beside if p.members[0].person == "ben"]
    assert len(alone) == 1, alone  # ben's cluster, when ana has written nothing
    assert bens == [sorted(BEN[:3])], (bens, stats)
