"""reflection@v1 (insights from never-recalled clusters: trust, provenance, idempotence; the
contradictions among a cluster's members flagged) and
evolution@v1 (tags and entities from neighbours, versions, never a user's words), through their
Dagster assets: refused while inactive, run by hand with force."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import dagster as dg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.evolution import evolve
from memory_pipelines.api.reflection import reflect
from memory_pipelines.core.records import trust_for, validate_item
from memory_pipelines.core.types import Item
from memory_pipelines.defs.evolution.assets import evolution
from memory_pipelines.defs.evolution.schedules import evolution_schedule
from memory_pipelines.defs.gating import GatedJobConfig
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.defs.reflection.assets import reflection
from memory_pipelines.defs.reflection.schedules import reflection_schedule
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import item_reads
from memory_pipelines.store import items as items_db
from memory_pipelines.store import links as links_db

ANA = [  # cosines 0.52-0.69 with all-MiniLM-L6-v2: a cluster by similarity alone
    "Ana prefers morning meetings before 10am",
    "Ana does not want meetings on Fridays",
    "Ana asked to keep standups short, under 15 minutes",
]
CONTRADICTING = [  # a cluster holding a contradiction (the first two)
    "Ana prefers morning meetings before 10am",
    "Ana does not want morning meetings",
    "Ana asked to keep standups short, under 15 minutes",
    "Ana does not want meetings on Fridays",
]
IMPORTER = [  # cosines 0.39-0.48: below the bar, a cluster only through their links
    "The importer uses sqlite for simpler operations",
    "The importer batch size is 500 rows",
    "The importer runs nightly at 2am",
]


@pytest.fixture(scope="module")
def instance() -> Iterator[dg.DagsterInstance]:
    # One Dagster instance for the module: making one costs more than a run.
    with dg.instance_for_test() as inst:
        yield inst


def _materialise(
    instance: dg.DagsterInstance, asset: Any, memory: Memory, pg_dsn: str, force: bool
) -> dict[str, Any]:
    if not instance.has_dynamic_partition("stores", memory.store_id):
        instance.add_dynamic_partitions("stores", [memory.store_id])
    result = dg.materialize(
        [asset],
        partition_key=memory.store_id,
        instance=instance,
        resources={
            "store": StoreResource(dsn=pg_dsn),
            "embedder": EmbedderResource(),
            "model": ModelResource(),
        },
        run_config=dg.RunConfig(ops={asset.op.name: GatedJobConfig(force=force)}),
    )
    assert result.success
    [check] = result.get_asset_check_evaluations()
    assert check.passed
    mats = result.asset_materializations_for_node(asset.op.name)
    if not mats:  # nothing done: an observation says so, no materialisation pretends data
        [seen] = result.asset_observations_for_node(asset.op.name)
        assert seen.partition == memory.store_id
        return {"materialized": False, **unscoped(memory.store_id, seen.metadata)}
    return {"materialized": True, **unscoped(memory.store_id, mats[0].metadata)}


def _add(memory: Memory, *items: dict[str, Any]) -> list[int]:
    """Facts through the normal insert path, embedded in one batch (the save policy is tested
    elsewhere). An item may name its origin; `outside` is untrusted."""
    vecs = memory.embedder.embed([i["context"] for i in items])
    with memory.db.transaction() as conn:
        return [
            items_db.insert_item(
                conn,
                memory.store_id,
                validate_item({"category": "fact", "confidence": 8, **_fields(i)}),
                vec,
                origin=i.get("origin", "explicit"),
                trusted=trust_for(i.get("origin", "explicit"), []),
            ).item_id
            for i, vec in zip(items, vecs, strict=True)
        ]


def _fields(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k != "origin"}


def _reflect(memory: Memory) -> dict[str, Any]:
    return reflect(memory.db, memory.store_id, memory.models, memory.embedder)


def _insights(memory: Memory, state: str | None = "current") -> list[Item]:
    return memory.items(category="insight", state=state)


def test_reflection_synthesises_clusters_into_insights(
    instance: dg.DagsterInstance, memory: Memory, pg_dsn: str
) -> None:
    ana = _add(
        memory,
        *({"context": t, "origin": "outside" if i == 1 else "explicit"} for i, t in enumerate(ANA)),
    )
    imp = _add(
        memory, *({"context": t, "entities": ["importer"], "tags": ["etl"]} for t in IMPORTER)
    )
    [recalled, _] = _add(
        memory,
        {"context": "Ana likes her meetings early in the morning"},
        {"context": "Bruno's dog is called Pixel"},
    )
    with memory.db.transaction() as conn:
        for a, b in [(imp[0], imp[1]), (imp[1], imp[2])]:
            links_db.add_link(conn, memory.store_id, "item", a, "item", b, "relates_to")
        item_reads.touch_items(conn, [recalled])  # recalled once: not a reflection candidate

    refused = _materialise(instance, reflection, memory, pg_dsn, force=False)
    assert refused["active"] is False and "not active" in refused["skipped"]
    assert refused["materialized"] is False
    assert _insights(memory) == []

    meta = _materialise(instance, reflection, memory, pg_dsn, force=True)
    assert meta["insights_created"] == 2 and meta["part_of_links"] == 6 and meta["forced"]
    by_members = {tuple(sorted(i.fed_by)): i for i in _insights(memory)}
    assert set(by_members) == {tuple(sorted(ana)), tuple(sorted(imp))}
    untrusted, trusted = by_members[tuple(sorted(ana))], by_members[tuple(sorted(imp))]
    assert untrusted.trusted is False  # one member came from outside: the least trust wins
    assert trusted.trusted is True
    for insight in (untrusted, trusted):
        assert insight.origin == "derived" and insight.source == "machine"
        assert insight.confidence <= 6 and insight.written_by == "reflection@v1"
        assert insight.context and "\n" not in insight.context
        assert [v.change for v in memory.history(insight.item_id)] == ["create"]
    assert trusted.entities == ["importer"] and trusted.tags == ["etl"]
    with memory.db.connection() as conn:
        parts = conn.execute(
            "SELECT src_id, dst_id FROM links WHERE store_id = %s AND link_type = 'part_of'",
            (memory.store_id,),
        ).fetchall()
    assert {(p["src_id"], p["dst_id"]) for p in parts} == {
        *((m, untrusted.item_id) for m in ana),
        *((m, trusted.item_id) for m in imp),
    }

    # Reruns through the API (the asset's own work): the same members make nothing new.
    again = _reflect(memory)
    assert again["insights_created"] == 0 and again["clusters_already_made"] == 2

    [grown] = _add(memory, {"context": "Ana wants meeting invites sent a day ahead"})
    with memory.db.transaction() as conn:
        links_db.add_link(conn, memory.store_id, "item", grown, "item", ana[0], "relates_to")
    third = _reflect(memory)
    assert third["insights_created"] == 1 and third["insights_superseded"] == 1
    assert memory.get(untrusted.item_id).state == "superseded"
    assert sorted(_insights(memory)[0].fed_by) == sorted([*ana, grown])


def test_reflection_flags_contradictions_among_the_members_it_summarises(memory: Memory) -> None:
    ids = _add(memory, *({"context": t} for t in CONTRADICTING))
    out = _reflect(memory)
    assert out["insights_created"] == 1 and out["contradictions_flagged"] >= 1, out
    early, never = memory.get(ids[0]), memory.get(ids[1])
    assert early.contested and never.item_id in early.contested_with
    assert never.contested and early.item_id in never.contested_with
    assert not memory.get(ids[2]).contested  # nothing it contradicts
    with memory.db.connection() as conn:
        calls = conn.execute(
            "SELECT count(*) AS n FROM model_calls WHERE store_id = %s AND task = 'contradiction'",
            (memory.store_id,),
        ).fetchone()["n"]
    assert calls == 6  # every pair of the four members, once
    # A rerun asks nothing again: every pair was judged in its present wording.
    again = _reflect(memory)
    assert again["contradictions_flagged"] == 0 and again["model_calls"] == 0


def test_a_run_killed_before_its_contradictions_asks_them_next_run(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The insights are written in one transaction and the members' contradictions asked
    after it: a run that stops between the two (killed, a model error) leaves its clusters
    made, and the next run, which writes no insight for them, still asks their pairs."""
    from memory_pipelines.api import reflection as reflection_api

    ids = _add(memory, *({"context": t} for t in CONTRADICTING))

    def killed(*_: Any, **__: Any) -> dict[str, int]:
        raise RuntimeError("killed between the insights and the contradictions")

    with monkeypatch.context() as m:
        m.setattr(reflection_api, "contradiction_pass", killed)
        with pytest.raises(RuntimeError):
            _reflect(memory)
    assert len(_insights(memory)) == 1 and not memory.get(ids[0]).contested
    again = _reflect(memory)
    assert again["insights_created"] == 0 and again["clusters_already_made"] == 1
    assert again["contradictions_flagged"] >= 1, again
    assert ids[1] in memory.get(ids[0]).contested_with


def test_evolution_adds_neighbour_labels_and_keeps_user_text(
    instance: dg.DagsterInstance, memory: Memory, pg_dsn: str
) -> None:
    memory.add_person("ana")
    hub, n1, n2, *private = _add(
        memory,
        {"context": "The Porto office hosts the quarterly offsite", "tags": ["offsite"]},
        {
            "context": "The Porto office has a rooftop terrace",
            "tags": ["office"],
            "entities": ["Porto"],
        },
        {
            "context": "The Porto office lease ends in 2026",
            "tags": ["office", "lease"],
            "entities": ["Porto"],
            "source": "machine",
            "confidence": 5,
            "origin": "outside",
        },
        # Ana's own records: whatever they share never reaches the shared hub
        {
            "context": "Ana is negotiating a Porto transfer",
            "person": "ana",
            "tags": ["ana-private"],
        },
        {"context": "Ana asked HR about moving to Porto", "person": "ana", "tags": ["ana-private"]},
    )
    with memory.db.transaction() as conn:
        for other in (n1, n2, *private):
            links_db.add_link(conn, memory.store_id, "item", other, "item", hub, "relates_to")
    before = {i.item_id: i for i in memory.items()}

    meta = _materialise(instance, evolution, memory, pg_dsn, force=True)
    assert meta["items_evolved"] >= 1
    after = memory.get(hub)
    assert after.tags == ["offsite", "office", "Porto"]  # shared by two visible neighbours
    assert after.entities == ["Porto"]  # a neighbour's entity its own text names
    assert "ana-private" not in after.tags
    assert after.context == before[hub].context  # the user's words, untouched
    assert after.updated_at == before[hub].updated_at  # not new evidence
    versions = memory.history(hub)
    assert [v.change for v in versions] == ["create", "evolve"]
    assert versions[-1].actor == "evolution@v1" and versions[-1].snapshot.tags[-1]
    for item_id, old in before.items():  # no context or body changed, machine's included
        now = memory.get(item_id)
        assert (now.context, now.body) == (old.context, old.body)

    # The hub's new entity reaches Ana's records on the next pass (they name Porto and may read
    # the shared hub); then nothing is left to learn, and a rerun writes nothing.
    second = evolve(memory.db, memory.store_id)
    assert second["items_evolved"] == 2 and memory.get(private[0]).entities == ["Porto"]
    assert evolve(memory.db, memory.store_id)["items_evolved"] == 0
    assert [v.change for v in memory.history(hub)] == ["create", "evolve"]

    # Deleted, the hub's events keep their kind and actor, not the labels evolution added (the
    # record's words); another record's evolve event keeps its own.
    memory.delete(hub, actor="ops")

    def events(item: int) -> list[dict[str, Any]]:
        with memory.db.connection() as conn:
            return conn.execute(
                "SELECT kind, actor, payload FROM events WHERE store_id = %s AND item_id = %s"
                " ORDER BY event_id",
                (memory.store_id, item),
            ).fetchall()

    gone = events(hub)
    assert [e["kind"] for e in gone] == ["create", "evolve", "delete"]
    assert gone[1]["actor"] == "evolution@v1"
    assert not any({"tags", "entities"} & set(e["payload"]) for e in gone), gone
    assert events(private[0])[-1]["payload"]["entities"] == ["Porto"]


@pytest.mark.parametrize("schedule", [reflection_schedule, evolution_schedule])
def test_schedules_ship_stopped(schedule: dg.ScheduleDefinition) -> None:
    assert schedule.default_status == dg.DefaultScheduleStatus.STOPPED
    assert schedule.execution_timezone == "UTC"


def test_a_member_reworded_after_the_plan_keeps_the_cluster_from_its_insight(
    memory: Memory,
) -> None:
    """The summary is the model's reading of the members' words when planned: a member a
    merge rewords before the insight is written makes that summary stale, so the cluster is
    counted changed and left for the next run, which reads the new words."""
    from memory_pipelines.api import reflection as reflection_api
    from memory_pipelines.api.dedup import merge_into

    ids = _add(memory, *({"context": t} for t in ANA))
    with memory.db.connection() as conn:
        plans, _, _ = reflection_api.plan(conn, memory.store_id, memory.models)
    assert [sorted(m.id for m in p.members) for p in plans] == [sorted(ids)]
    reworded = "Ana does not want meetings on Fridays, when she works from home in Leeds"
    with memory.db.transaction() as conn:
        cand = validate_item({"category": "fact", "confidence": 8, "context": reworded})
        vec = memory.embedder.embed_one(reworded)
        assert merge_into(conn, ids[1], cand, vec, "test")  # its words changed
    with memory.db.transaction() as conn:
        done = reflection_api.apply(
            conn, memory.store_id, plans, memory.embedder, memory.models.backend.model
        )
    assert done["clusters_changed"] == 1 and done["insights_created"] == 0
    assert _insights(memory) == []
    again = _reflect(memory)
    assert again["insights_created"] == 1
    [insight] = _insights(memory)
    assert memory.get(ids[1]).context == reworded and sorted(insight.fed_by) == sorted(ids)
