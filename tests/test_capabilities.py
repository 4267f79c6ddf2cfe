"""The specs' call shapes run as written: use("agent:any@v1"), use("agent:recall@v1").recall(c,
space), use("agent:memory@v1").memory(c, space), and the code auto-recall injects (real
Postgres, real model)."""

from __future__ import annotations

import json

import pytest

from memory_pipelines.api import Memory, Recall, use
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.api.capabilities import Context
from memory_pipelines.errors import ValidationError


def test_the_specs_save_with_dedup_example_runs_as_written(memory: Memory) -> None:
    c = Context(db=memory.db, embedder=memory.embedder)
    space = memory.store_id
    r = use("agent:recall@v1").recall(c, space)
    m = use("agent:memory@v1").memory(c, space)
    item = {"category": "decision", "context": "picked sqlite for the importer: simpler ops"}
    first = m.save_with_dedup({**item, "confidence": 8}, recall=r)
    again = m.save_with_dedup({**item, "confidence": 8}, recall=r)
    assert first.saved and first.id is not None
    assert again.deduplicated and again.merged_into == first.id
    hits = r.search("why sqlite for the importer?", scopes=["agent"])
    assert [h.id for h in hits][:1] == [first.id]
    assert isinstance(use("agent:any@v1"), Context)
    with pytest.raises(ValidationError, match="agent:recall@v1"):
        use("agent:nothing@v1")  # type: ignore[call-overload]


def test_the_code_auto_recall_injects_runs_against_the_store(
    memory: Memory, recall: Recall
) -> None:
    memory.save({"category": "fact", "context": "The cabin wifi password is pinecone42"})
    memory.write_turn("c", "Hi")
    out = autorecall(recall, "c", "What's the cabin wifi password?")
    call = out.messages[0]["tool_calls"][0]["function"]
    code = json.loads(call["arguments"])["code"]
    space: dict = {"use": use, "c": Context(db=memory.db, embedder=memory.embedder)}
    space["space"] = memory.store_id
    *setup, last = code.splitlines()
    exec("\n".join(setup), space)  # noqa: S102 - the fixed idiom of core/injection
    hits = eval(last, space)  # noqa: S307
    assert any("pinecone42" in h.text for h in hits)


def test_the_start_of_a_turn_is_a_capability_bound_to_its_space(
    memory: Memory, recall: Recall
) -> None:
    memory.add_person("ana")
    memory.save({"category": "fact", "context": "Ana's locker code is 4417", "person": "ana"})
    memory.write_turn("gym", "Hi", person="ana")
    c = Context(db=memory.db, embedder=memory.embedder)
    start = use("agent:autorecall@v1").autorecall(c, memory.store_id)
    got = start("gym", "what's my locker code again?", person="ana", budget_tokens=400)
    direct = autorecall(recall, "gym", "what's my locker code again?", person="ana")
    assert got.records == direct.records != []
    assert any("4417" in str(m.get("content", "")) for m in got.messages), got.messages
