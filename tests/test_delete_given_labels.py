"""Deleting a record takes back the labels it gave other records (store/given_labels.py).

Found by a deletion audit (a helper that had not seen the code): evolution gives an item a tag
two of its linked neighbours carry, and maintenance's merge of duplicates gives the survivor
the union of their labels. Deleting the records that carried a label left it on the record
they gave it to, in that record's versions and events, all served over HTTP."""

from __future__ import annotations

import uuid

from memory_pipelines.api import Memory, evolution, maintenance
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store.db import Database
from memory_pipelines.store.links import add_link


def _marker() -> str:
    return "q" + uuid.uuid4().hex[:8] + "blax"


def _anywhere(db: Database, marker: str) -> list[str]:
    """Every table and column holding the marker in any row (any case)."""
    found = []
    with db.connection() as conn:
        cols = conn.execute(
            "SELECT c.table_name AS t, c.column_name AS c FROM information_schema.columns c"
            " JOIN information_schema.tables t USING (table_schema, table_name)"
            " WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'"
            " AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY',"
            " 'tsvector')"
        ).fetchall()
        for col in cols:
            hit = conn.execute(
                f'SELECT 1 FROM "{col["t"]}" WHERE "{col["c"]}"::text ILIKE %s LIMIT 1',  # noqa: S608
                (f"%{marker}%",),
            ).fetchone()
            if hit:
                found.append(f"{col['t']}.{col['c']}")
    return found


def _save(memory: Memory, context: str, **labels: list[str]) -> int:
    item = {"category": "fact", "confidence": 8, "person": "ana", "context": context, **labels}
    return memory.save(item).id


def _link(memory: Memory, *pairs: tuple[int, int]) -> None:
    with memory.db.transaction() as conn:
        for a, b in pairs:
            add_link(conn, memory.store_id, "item", a, "item", b, "relates_to", model="test")


def _two_neighbours_tagged(memory: Memory) -> tuple[str, int, int, int]:
    """Ana's record y linked to x1 and x2, which both carry a new marker tag: (m, y, x1, x2)."""
    m = _marker()
    memory.add_person("ana")
    y = _save(memory, "Ana keeps the ledger in the bank vault downtown.", tags=["finance"])
    x1 = _save(memory, "Ana's ledger vault has code 7781.", tags=[m])
    x2 = _save(memory, "Ana visits the bank vault every Monday.", tags=[m])
    _link(memory, (y, x1), (y, x2))
    return m, y, x1, x2


def test_a_tag_evolution_gave_goes_when_the_last_record_carrying_it_does(memory: Memory) -> None:
    m, y, x1, x2 = _two_neighbours_tagged(memory)
    evolution.evolve(memory.db, memory.store_id)
    assert m in memory.get(y).tags  # two neighbours carry it
    memory.delete(x1, actor="ana")
    assert m in memory.get(y).tags  # x2 still does
    memory.delete(x2, actor="ana")
    assert memory.get(y).tags == ["finance"]
    assert _anywhere(memory.db, m) == []
    history = memory.history(y)
    assert [v.change for v in history] == ["create", "evolve"]  # the change stays, not its words
    assert all(m not in v.model_dump_json() for v in history)


def test_a_label_passed_on_goes_along_the_records_that_passed_it(memory: Memory) -> None:
    """z got the tag from x1 and x2; y from z and w. Deleting w leaves y's (z holds it); then
    deleting x1 and x2 takes it from z, and so from y, whose givers hold it no more."""
    m = _marker()
    memory.add_person("ana")
    z = _save(memory, "Ana's bank vault opens at nine.")
    x1 = _save(memory, "Ana's vault code is 7781.", tags=[m])
    x2 = _save(memory, "Ana visits the vault on Mondays.", tags=[m])
    _link(memory, (z, x1), (z, x2))
    evolution.evolve(memory.db, memory.store_id)
    y = _save(memory, "Ana's vault key hangs in the hall.")
    w = _save(memory, "Ana's spare vault key is with Rita.", tags=[m])
    _link(memory, (y, z), (y, w))
    evolution.evolve(memory.db, memory.store_id)
    assert m in memory.get(z).tags and m in memory.get(y).tags
    memory.delete(w, actor="ana")
    assert m in memory.get(y).tags
    memory.delete(x1, actor="ana")
    memory.delete(x2, actor="ana")
    assert memory.get(z).tags == [] and memory.get(y).tags == []
    assert _anywhere(memory.db, m) == []


def test_a_duplicates_labels_leave_the_survivor_with_the_duplicate(
    memory: Memory, embedder
) -> None:
    m = _marker()
    memory.add_person("ana")
    memory.configure(maintenance={"duplicate_threshold": 0.8})
    y = _save(
        memory,
        "Ana keeps her savings ledger in the Orbital bank vault downtown.",
        tags=["finance"],
        entities=["Orbital bank"],
    )
    x = memory.save(
        {
            "category": "fact",
            "confidence": 6,
            "person": "ana",
            "tags": [m, "finance"],
            "entities": [f"{m.title()} ledger"],
            "keywords": [m],
            "context": f"Ana keeps the {m} ledger in the Orbital bank vault downtown.",
        }
    ).id
    maintenance.maintain(memory.db, memory.store_id, lambda: Models(LocalBackend(embedder)))
    assert memory.get(x).state == "superseded"
    survivor = memory.get(y)
    assert m in survivor.tags and m in survivor.keywords  # the union
    memory.delete(x, actor="ana")
    survivor = memory.get(y)
    assert survivor.tags == ["finance"] and survivor.entities == ["Orbital bank"]
    assert survivor.keywords == []
    assert _anywhere(memory.db, m) == []


def test_a_case_variant_of_the_survivors_own_tag_is_not_taken_back(
    memory: Memory, embedder
) -> None:
    """Found by a reviewer: the survivor's own "Finance" went with the duplicate's "finance"
    (the union keeps both spellings, the take-back compares without case)."""
    memory.add_person("ana")
    memory.configure(maintenance={"duplicate_threshold": 0.8})
    y = _save(memory, "Ana keeps her savings ledger in the Orbital bank vault.", tags=["Finance"])
    x = memory.save(
        {
            "category": "fact",
            "confidence": 6,
            "person": "ana",
            "tags": ["finance"],
            "context": "Ana keeps the savings ledger in the Orbital bank vault.",
        }
    ).id
    maintenance.maintain(memory.db, memory.store_id, lambda: Models(LocalBackend(embedder)))
    assert memory.get(x).state == "superseded"
    memory.delete(x, actor="ana")
    assert "Finance" in memory.get(y).tags
    assert "Finance" in memory.history(y)[0].model_dump_json()


def test_an_evolution_planned_before_its_givers_were_deleted_gives_nothing(
    memory: Memory,
) -> None:
    """Found by a reviewer: the plan read the neighbours, the delete committed, and the apply
    wrote their label anyway, naming givers no later delete could take it back for."""
    m, y, x1, x2 = _two_neighbours_tagged(memory)
    with memory.db.connection() as conn:
        changes, _ = evolution.plan(conn, memory.store_id)
    memory.delete(x1, actor="ana")
    memory.delete(x2, actor="ana")
    with memory.db.transaction() as conn:
        evolution.apply(conn, memory.store_id, changes)
    assert m not in memory.get(y).tags
    assert _anywhere(memory.db, m) == []
