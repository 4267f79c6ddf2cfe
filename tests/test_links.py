"""linkgen@v1: vocabulary-only links (core check and through the asset), the local rules,
provenance on every link, idempotent re-runs, the graph's shape, the hourly sensor."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import dagster as dg

from memory_pipelines.api import Memory
from memory_pipelines.api.links import link_pending
from memory_pipelines.core.links import (
    LinkNode,
    LinkProposal,
    check_proposals,
    graph_stats,
    out_of_vocabulary,
    propose_local,
)
from memory_pipelines.core.records import validate_item
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.links.sensors import linkgen_sensor
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.models.base import Models
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import items as items_db
from memory_pipelines.store.links import candidates, load_nodes
from tests.fake_openai import FakeOpenAI

T0 = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)
CHUNK = (
    "Ana: we picked sqlite for the importer, ops are simpler. Bo: the Postgres test server kept "
    "crashing during imports. Bo: I will write the migration script by Friday. Ana: the "
    "importer must run offline on laptops."
)


def _item(memory: Memory, context: str, category: str = "fact", **kw: Any) -> int:
    prov = {k: kw.pop(k) for k in ("chat_id", "from_seq", "to_seq") if k in kw}
    item = validate_item({"category": category, "context": context, **kw})
    with memory.db.transaction() as conn:
        return items_db.insert_item(
            conn,
            memory.store_id,
            item,
            memory.embedder.embed_one(context),
            origin="explicit",
            trusted=True,
            **prov,
        ).item_id


def _chunk(memory: Memory, chat_id: int, lo: int, hi: int, summary: str, level: int = 1) -> int:
    with memory.db.connection() as conn:
        row = conn.execute(
            "INSERT INTO chunks (store_id, chat_id, level, seq, from_seq, to_seq, summary,"
            " period_start, period_end, units_covered, children, embedding)"
            " VALUES (%s, %s, %s, 1, %s, %s, %s, %s, %s, %s, '{}', %s) RETURNING chunk_id",
            (
                memory.store_id,
                chat_id,
                level,
                lo,
                hi,
                summary,
                T0,
                T0 + timedelta(hours=1),
                hi - lo + 1,
                memory.embedder.embed_one(summary),
            ),
        ).fetchone()
    return int(row["chunk_id"])


def _materialize(memory: Memory, pg_dsn: str, model: ModelResource) -> dg.ExecuteInJobResult:
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        return dg.materialize(
            [link_graph],
            partition_key=memory.store_id,
            instance=instance,
            resources={
                "store": StoreResource(dsn=pg_dsn),
                "embedder": EmbedderResource(),
                "model": model,
            },
        )


def _meta(result: dg.ExecuteInJobResult) -> dict[str, Any]:
    mat = result.asset_materializations_for_node("link_graph")[0]
    return unscoped(mat.partition or "", mat.metadata)


def _links(memory: Memory) -> list[dict[str, Any]]:
    with memory.db.connection() as conn:
        return [
            dict(r)
            for r in conn.execute(
                "SELECT * FROM links WHERE store_id = %s ORDER BY link_id", (memory.store_id,)
            )
        ]


def test_check_proposals_keeps_only_the_vocabulary_and_shown_targets() -> None:
    kept, dropped = check_proposals(
        [
            LinkProposal(0, "relates_to", 0.4),
            LinkProposal(0, "relates_to", 0.7),  # repeated: the higher confidence stays
            LinkProposal(1, "loves", 0.9),
            LinkProposal(5, "caused_by", 0.9),
            LinkProposal(-1, "caused_by", 0.9),
            LinkProposal("1", "caused_by", 0.9),
            LinkProposal(1, "part_of", 1.5),
        ],
        n_candidates=2,
    )
    assert kept == [LinkProposal(0, "relates_to", 0.7)]
    assert len(dropped) == 5
    assert "'loves' is not one of relates_to" in dropped[0]
    assert "target must be 0-1, got 5" in dropped[1]


def test_links_in_vocabulary_check_flags_planted_rows() -> None:
    rows = [{"link_type": "relates_to", "n": 3}, {"link_type": "loves", "n": 2}]
    assert out_of_vocabulary(rows) == {"loves": 2}
    assert out_of_vocabulary(rows[:1]) == {}


def test_graph_stats_of_a_small_graph() -> None:
    a, b, c, d, e = ("item", 1), ("item", 2), ("chunk", 1), ("item", 3), ("item", 4)
    stats = graph_stats([(a, b), (b, c), (a, b), (d, e)])
    assert stats == {"nodes": 5, "edges": 4, "components": 2, "largest_component": 3}
    assert graph_stats([]) == {"nodes": 0, "edges": 0, "components": 0, "largest_component": 0}


def test_local_rules() -> None:
    decision = LinkNode("item", 1, "We picked sqlite", "decision", chat_id=7, from_seq=3, to_seq=3)
    l1 = LinkNode("chunk", 10, "...", "chunk", level=1, chat_id=7, from_seq=1, to_seq=10)
    l2 = LinkNode("chunk", 11, "...", "chunk", level=2, chat_id=7, from_seq=1, to_seq=100)
    other_chat = LinkNode("chunk", 12, "...", "chunk", level=1, chat_id=8, from_seq=1, to_seq=10)
    # the most specific chunk holding its turns, whatever the order shown
    got = propose_local(decision, [l2, other_chat, l1], [0.9, 0.9, 0.2])
    assert [(p.target, p.type) for p in got] == [(2, "decided_in")]
    fact = LinkNode("item", 2, "Importer runs offline", "fact", chat_id=7, from_seq=4)
    assert [p.type for p in propose_local(fact, [l1], [0.5])] == ["discussed_in"]
    assert propose_local(fact, [l1], [0.1]) == []  # holds its turns but is about other things

    commitment = LinkNode("item", 3, "Bo will write it", "commitment", owner="Bo")
    bo = LinkNode("item", 4, "Bo is the data engineer", "fact", entities=("Bo",))
    crowd = LinkNode("item", 5, "Bo said the server crashed", "fact", entities=("Bo",))
    assert [p.type for p in propose_local(commitment, [bo], [0.2])] == ["owned_by"]
    assert propose_local(commitment, [crowd], [0.2]) == []  # no object that is the owner

    effect = LinkNode("item", 6, "Moved to sqlite because the server crashed", "decision")
    cause = LinkNode("item", 7, "The server kept crashing", "fact")
    assert [p.type for p in propose_local(effect, [cause], [0.5], [0.8])] == ["caused_by"]
    assert [p.type for p in propose_local(effect, [cause], [0.7], None)] == ["relates_to"]
    many = [LinkNode("item", 20 + i, f"x{i}", "fact") for i in range(6)]
    related = propose_local(effect, many, [0.7, 0.9, 0.8, 0.66, 0.1, 0.75])
    assert [p.target for p in related] == [1, 2, 5]  # the three closest only
    assert all(p.type != "supersedes" for p in related)


def test_local_links_typed_with_provenance_and_rerun_adds_nothing(
    memory: Memory, pg_dsn: str
) -> None:
    turns = memory.write_turns("c1", [{"text": f"turn {i}"} for i in range(10)])
    chat = turns[0].chat_id
    chunk = _chunk(memory, chat, 1, 10, CHUNK)
    crash = _item(
        memory,
        "The Postgres test server kept crashing during imports",
        chat_id=chat,
        from_seq=2,
        entities=["Bo"],
        valid_from=T0,
    )
    dec = _item(
        memory,
        "Ana decided to use sqlite for the importer",
        "decision",
        chat_id=chat,
        from_seq=1,
        entities=["Ana"],
        valid_from=T0 + timedelta(minutes=5),
    )
    why = _item(
        memory,
        "Ana moved the importer to sqlite because the Postgres test server kept crashing",
        "decision",
        entities=["Ana"],
        valid_from=T0 + timedelta(minutes=6),
    )
    offline = _item(
        memory,
        "The importer must run offline on laptops",
        chat_id=chat,
        from_seq=4,
        entities=["Ana"],
    )
    bo = _item(memory, "Bo is the data engineer on the importer team", entities=["Bo"])
    todo = _item(
        memory,
        "Bo will write the migration script by Friday",
        "commitment",
        status="open",
        metadata={"owner": "Bo"},
        entities=["Bo"],
    )
    _item(memory, "Ana grows tomatoes on her balcony", entities=["Ana"])

    result = _materialize(memory, pg_dsn, ModelResource())
    assert result.success
    meta = _meta(result)
    links = _links(memory)
    got = {(r["src_id"], r["dst_kind"], r["dst_id"], r["link_type"]) for r in links}
    assert (dec, "chunk", chunk, "decided_in") in got
    assert (offline, "chunk", chunk, "discussed_in") in got
    assert (why, "item", crash, "caused_by") in got
    assert (todo, "item", bo, "owned_by") in got
    assert (todo, "item", crash, "owned_by") not in got  # names Bo, but is not about Bo
    assert not any(t == "supersedes" for *_, t in got)
    for r in links:
        assert r["run_id"] == result.run_id and r["model"] == "local-rules-v1"
        assert 0 < r["confidence"] <= 1
    assert meta["items_read"] == 7 and meta["links_created"] == len(links)
    assert meta["total_decided_in"] == meta["created_decided_in"] >= 1
    assert meta["edges"] == len(links) and meta["nodes"] >= 6
    assert 1 <= meta["largest_component"] <= meta["nodes"]
    [check] = result.get_asset_check_evaluations()
    assert check.check_name == "links_in_vocabulary" and check.passed
    with memory.db.connection() as conn:
        calls = conn.execute(
            "SELECT tier, task, run_id FROM model_calls WHERE store_id = %s", (memory.store_id,)
        ).fetchall()
    assert len(calls) == 7
    assert {(c["tier"], c["task"], c["run_id"]) for c in calls} == {
        ("classify", "link", result.run_id)
    }

    again = _meta(_materialize(memory, pg_dsn, ModelResource()))
    assert again["items_read"] == 0 and again["links_created"] == 0
    with memory.db.connection() as conn:  # forget the progress marks: still no duplicates
        conn.execute("DELETE FROM linkgen_items WHERE store_id = %s", (memory.store_id,))
        conn.execute(
            "UPDATE agent_memory_items SET updated_at = now() WHERE item_id = %s", (offline,)
        )
    third = link_pending(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)))
    assert third["items_read"] == 7 and third["created"] == {}
    assert len(_links(memory)) == len(links)


def test_a_chunk_built_later_sends_its_items_back(memory: Memory) -> None:
    chat = memory.write_turns("c1", [{"text": f"turn {i}"} for i in range(10)])[0].chat_id
    item = _item(memory, "The importer must run offline on laptops", chat_id=chat, from_seq=4)
    models = Models(LocalBackend(memory.embedder))
    assert link_pending(memory.db, memory.store_id, models)["items_read"] == 1
    assert link_pending(memory.db, memory.store_id, models)["items_read"] == 0
    chunk = _chunk(memory, chat, 1, 10, CHUNK)  # the pyramid reaches its turns
    res = link_pending(memory.db, memory.store_id, models)
    assert res["items_read"] == 1 and res["created"] == {"discussed_in": 1}
    [link] = _links(memory)
    assert (link["src_id"], link["dst_kind"], link["dst_id"]) == (item, "chunk", chunk)
    assert link_pending(memory.db, memory.store_id, models)["items_read"] == 0


def test_a_chunk_committed_after_the_read_but_begun_before_sends_its_items_back(
    memory: Memory,
) -> None:
    """A pyramid batch whose transaction began before linkgen read the item and committed
    after: its chunk's created_at (the transaction's start) is before the read, yet linkgen
    never saw it. It is offered next run (before, never: the chunk looked older than the read)."""
    chat = memory.write_turns("c1", [{"text": f"turn {i}"} for i in range(10)])[0].chat_id
    item = _item(memory, "The importer must run offline on laptops", chat_id=chat, from_seq=4)
    models = Models(LocalBackend(memory.embedder))
    with memory.db.transaction() as pyramid:  # begins now, commits after linkgen has read
        pyramid.execute("SELECT now()")
        assert link_pending(memory.db, memory.store_id, models)["items_read"] == 1
        chunk = pyramid.execute(
            "INSERT INTO chunks (store_id, chat_id, level, seq, from_seq, to_seq, summary,"
            " period_start, period_end, units_covered, children, embedding)"
            " SELECT %s, %s, 1, 1, 1, 10, %s, %s, %s, 10, '{}', embedding"
            " FROM agent_memory_items WHERE item_id = %s RETURNING chunk_id, created_at",
            (memory.store_id, chat, CHUNK, T0, T0 + timedelta(hours=1), item),
        ).fetchone()
    with memory.db.connection() as conn:
        [read] = conn.execute(
            "SELECT read_at FROM linkgen_items WHERE item_id = %s", (item,)
        ).fetchall()
    assert chunk["created_at"] < read["read_at"]  # looks older than the read
    res = link_pending(memory.db, memory.store_id, models)
    assert res["items_read"] == 1 and res["created"] == {"discussed_in": 1}
    [link] = _links(memory)
    assert (link["dst_kind"], link["dst_id"]) == ("chunk", chunk["chunk_id"])
    assert link_pending(memory.db, memory.store_id, models)["items_read"] == 0


def test_proposals_outside_the_vocabulary_are_dropped_by_the_asset(
    memory: Memory, pg_dsn: str
) -> None:
    _item(memory, "Ana's team ships the mobile app in Flutter")
    _item(memory, "Ana's team picked Flutter for both apps")
    answer = json.dumps(
        {
            "links": [
                {"target": 0, "type": "loves", "confidence": 0.9},
                {"target": 3, "type": "relates_to", "confidence": 0.9},
                {"target": 0, "type": "relates_to", "confidence": 0.8},
            ]
        }
    )
    with FakeOpenAI([answer, answer]) as fake:
        model = ModelResource(backend="openai", base_url=fake.url, model="tiny")
        result = _materialize(memory, pg_dsn, model)
    assert result.success
    meta = _meta(result)
    assert meta["proposals_dropped"] == 4 and meta["proposals"] == 2
    # both items proposed relates_to to each other: one link, stored once per pair
    [link] = _links(memory)
    assert link["link_type"] == "relates_to" and link["model"] == "tiny"
    assert link["confidence"] == 0.8 and link["run_id"] == result.run_id
    prompt = fake.requests[0]["body"]["messages"][1]["content"]
    assert "\n0: [item, fact]" in prompt and "CANDIDATES" in prompt


def test_hourly_sensor_ships_running() -> None:
    # What it asks for, and when it asks for nothing: tests/test_fixed_cost.py.
    assert linkgen_sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert linkgen_sensor.minimum_interval_seconds == 3600
    assert linkgen_sensor.job_name == "linkgen"


def test_a_shared_item_said_in_a_private_chat_is_not_tied_to_that_chats_summary(
    memory: Memory,
) -> None:
    """A shared record (for everyone) may be saved during Ana's private turn; the summary of
    her chat is hers alone, so linkgen ties her own decision to it and never the shared one."""
    memory.add_person("ana")
    turns = memory.write_turns("ana-chat", [{"text": f"turn {i}"} for i in range(10)], person="ana")
    chat = turns[0].chat_id
    _chunk(memory, chat, 1, 10, CHUNK)
    words = "Ana decided to use sqlite for the importer, ops are simpler"
    hers = _item(memory, words, "decision", chat_id=chat, from_seq=1, person="ana")
    shared = _item(memory, words + " on laptops", "decision", chat_id=chat, from_seq=1)
    link_pending(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)))
    to_chunk = {(r["src_id"], r["link_type"]) for r in _links(memory) if r["dst_kind"] == "chunk"}
    assert (hers, "decided_in") in to_chunk  # the chunk is offered to its owner's item
    assert all(src != shared for src, _ in to_chunk), to_chunk


def test_a_relation_between_shared_and_a_persons_item_is_made_from_the_persons_side(
    memory: Memory,
) -> None:
    """relates_to is stored once per pair, the smaller id first, so its direction says nothing
    of which end found the other. A shared item's candidates are shared items only, so a
    relation between a shared item and Ana's was found from Ana's side, where both are hers to
    read; Ana's and Bob's items are never related (the isolation property reads links so)."""
    memory.add_person("ana")
    memory.add_person("bob")
    words = "The quarterly report goes to Rita by the fifth of each month"
    shared = _item(memory, words)
    anas = _item(memory, words + ", Ana checks it", person="ana")
    bobs = _item(memory, words + ", Bob checks it", person="bob")
    link_pending(memory.db, memory.store_id, Models(LocalBackend(memory.embedder)))
    pairs = {
        frozenset((r["src_id"], r["dst_id"])) for r in _links(memory) if r["dst_kind"] == "item"
    }
    assert frozenset((shared, anas)) in pairs and frozenset((shared, bobs)) in pairs, pairs
    assert frozenset((anas, bobs)) not in pairs, pairs
    with memory.db.connection() as conn:
        [(node, _)] = load_nodes(conn, memory.store_id, "item", [shared])
        found = candidates(conn, memory.store_id, node, None, 5)
    assert {n.id for n in found if n.kind == "item"} <= {shared}, found
