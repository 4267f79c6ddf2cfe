"""maintenance@v1: duplicates merged within a person and category (never across), the weaker
replaced by the stronger, faded records archived and restored, nothing ever deleted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import dagster as dg
import numpy as np
import polars as pl
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.decay import score_store
from memory_pipelines.core.maintenance import Strength, duplicate_clusters, faded, union_fields
from memory_pipelines.core.types import Edge
from memory_pipelines.defs.maintenance.assets import maintenance
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from tests.item_helpers import make_item

NOW = datetime(2024, 6, 1, tzinfo=UTC)
TABLES = ("agent_memory_items", "item_versions", "links", "events")


def run_maintenance(store_id: str, pg_dsn: str) -> dict[str, Any]:
    """Materialise the maintenance asset for one store; its metadata as plain values."""
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [store_id])
        result = dg.materialize(
            [maintenance],
            partition_key=store_id,
            instance=instance,
            resources={
                "store": StoreResource(dsn=pg_dsn),
                "embedder": EmbedderResource(),
                "model": ModelResource(),
            },
        )
    assert result.success
    [check] = result.get_asset_check_evaluations()
    assert check.passed  # supersede chains stay acyclic
    mats = result.asset_materializations_for_node("maintenance")
    if not mats:  # nothing done: an observation says so, no materialisation pretends data
        [seen] = result.asset_observations_for_node("maintenance")
        return {"materialized": False, **unscoped(store_id, seen.metadata)}
    return unscoped(store_id, mats[0].metadata)


def row_counts(memory: Memory) -> dict[str, int]:
    with memory.db.connection() as conn:
        return {
            t: conn.execute(
                f"SELECT count(*) AS n FROM {t} WHERE store_id = %s",  # noqa: S608 - fixed names
                (memory.store_id,),
            ).fetchone()["n"]
            for t in TABLES
        }


def _strength(item_id: int, source: str = "user", conf: int = 5, confirms: int = 0, age: int = 0):
    return Strength(source, conf, confirms, NOW - timedelta(days=age), item_id)


def test_clusters_stay_within_a_group_and_the_strongest_survives() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(2, 16))
    vecs = np.stack([a, a + 0.01, a + 0.02, a, b, b + 0.01])
    groups = [("ana", "fact")] * 3 + [("ben", "fact"), ("ana", "fact"), ("ana", "goal")]
    strengths = [
        _strength(1, "machine", conf=9),  # machine: loses to any user record
        _strength(2, conf=5, age=1),
        _strength(3, conf=5, age=3),  # older than 2, otherwise equal: survives
        _strength(4),
        _strength(5),
        _strength(6),
    ]
    [cluster] = duplicate_clusters(vecs, groups, strengths, 0.95)
    # ben's identical vector (row 3) and the goal (row 5) are other groups: never merged
    assert (cluster.survivor, cluster.weaker) == (2, (0, 1))
    assert all(c > 0.95 for c in cluster.cosines)


def test_strength_order_source_confidence_confirmations_age() -> None:
    order = [
        _strength(1, "machine", conf=10, confirms=9, age=900),
        _strength(2, conf=3),
        _strength(3, conf=4),
        _strength(4, conf=4, confirms=2),
        _strength(5, conf=4, confirms=2, age=10),
    ]
    keys = [s.key() for s in order]
    assert keys == sorted(keys)  # each one stronger than the one before


def test_a_chain_of_near_records_is_one_cluster_whatever_the_order() -> None:
    # A~B and B~C but A and C further apart: one cluster, the same from any row order.
    base = np.zeros((3, 3))
    base[:, 0] = 1.0
    base[1, 1], base[2, 1], base[2, 2] = 0.3, 0.6, 0.0
    unit = base / np.linalg.norm(base, axis=1, keepdims=True)
    sims = unit @ unit.T
    threshold = float(min(sims[0, 1], sims[1, 2])) - 1e-4
    assert sims[0, 2] < threshold
    strengths = [_strength(i + 1, conf=5 + i) for i in range(3)]
    [c] = duplicate_clusters(unit, [("p", "fact")] * 3, strengths, threshold)
    assert (c.survivor, c.weaker) == (2, (0, 1))
    rev = duplicate_clusters(unit[::-1], [("p", "fact")] * 3, strengths[::-1], threshold)
    assert (rev[0].survivor, rev[0].weaker) == (0, (1, 2))


def test_a_contradiction_is_never_merged_as_a_duplicate() -> None:
    vecs = np.ones((2, 4))  # identical vectors: only the rules keep them apart
    texts = ["Ana is vegetarian", "Ana is not vegetarian"]
    strengths = [_strength(1), _strength(2)]
    assert duplicate_clusters(vecs, [("ana", "fact")] * 2, strengths, 0.9, texts) == []
    assert len(duplicate_clusters(vecs, [("ana", "fact")] * 2, strengths, 0.9)) == 1


def test_union_of_fields_keeps_order_and_drops_self_edges() -> None:
    keep = make_item(item_id=1, tags=["a"], keywords=["k"])
    weak = make_item(
        item_id=2,
        tags=["b", "a"],
        entities=["Ana"],
        edges=[
            {"type": "relates_to", "kind": "item", "target": 1},
            {"type": "part_of", "kind": "item", "target": 9},
        ],
    )
    out = union_fields(keep, [weak])
    assert out["tags"] == ["a", "b"] and out["entities"] == ["Ana"] and out["keywords"] == ["k"]
    assert out["edges"] == [Edge(type="part_of", kind="item", target=9)]


def test_faded_needs_a_fresh_score_low_salience_and_idle_days() -> None:
    t = pl.Datetime("us", "UTC")
    old, recent = NOW - timedelta(days=100), NOW - timedelta(days=5)
    frame = pl.DataFrame(
        {
            "item_id": [1, 2, 3, 4, 5],
            "salience": [0.1, 0.5, None, 0.1, 0.1],
            "scored_at": [NOW, NOW, None, NOW - timedelta(days=10), NOW],
            "last_recalled_at": [None, None, None, None, recent],
            "last_confirmed_at": [None, None, None, recent, None],
            "created_at": [old] * 5,
        },
        schema_overrides={c: t for c in ("scored_at", "last_recalled_at", "last_confirmed_at")},
    ).with_columns(pl.col("created_at").cast(t))
    out = faded(frame, archive_below=0.2, idle_days=90, now=NOW)
    # 2: salient; 3: never scored; 4: confirmed after its score; 5: recalled lately
    assert out["item_id"].to_list() == [1]
    assert out["idle_days"][0] == pytest.approx(100)


def test_duplicates_merged_within_a_person_never_across(memory: Memory, pg_dsn: str) -> None:
    memory.add_person("ana")
    memory.add_person("ben")
    memory.configure(maintenance={"duplicate_threshold": 0.9})
    other = memory.save({"category": "fact", "context": "Ana flies to Lisbon each spring"}).id
    text = "Ana prefers window seats on flights"

    def save(**kw: Any) -> int:
        item = {"category": "preference", "context": text, "person": "ana", **kw}
        return memory.save(item).id

    weak = save(
        source="machine",
        confidence=7,
        tags=["travel"],
        entities=["Ana"],
        edges=[{"type": "relates_to", "target": other}],
    )
    strong = save(context="Ana prefers a window seat on flights", tags=["seating"], keywords=["w"])
    bens = save(person="ben")  # the same words for another person
    shared = save(person=None)  # and shared: a group of its own
    goal = save(category="goal")  # and another type
    before = row_counts(memory)

    meta = run_maintenance(memory.store_id, pg_dsn)
    assert meta["merged"] == 1 and meta["duplicate_clusters"] == 1
    assert meta["items_scanned"] == 6 and meta["dagster/row_count"] == 5
    gone, kept = memory.get(weak), memory.get(strong)
    assert gone.state == "superseded" and gone.superseded_by == strong
    assert gone.valid_until is not None
    assert kept.state == "current" and kept.valid_until is None
    assert kept.tags == ["seating", "travel"] and kept.entities == ["Ana"]
    assert kept.keywords == ["w"] and kept.source == "user"
    assert kept.edges == [Edge(type="relates_to", kind="item", target=other)]
    for i in (bens, shared, goal, other):
        assert memory.get(i).state == "current"
    with memory.db.connection() as conn:
        links = conn.execute(
            "SELECT src_id, dst_id, link_type FROM links WHERE store_id = %s ORDER BY link_id",
            (memory.store_id,),
        ).fetchall()
        events = conn.execute(
            "SELECT kind, item_id, payload FROM events WHERE store_id = %s AND actor = %s",
            (memory.store_id, "maintenance@v1"),
        ).fetchall()
    assert {"src_id": strong, "dst_id": weak, "link_type": "supersedes"} in links
    assert {"src_id": strong, "dst_id": other, "link_type": "relates_to"} in links
    assert {(e["kind"], e["item_id"]) for e in events} == {("supersede", weak), ("merge", strong)}
    assert [v.change for v in memory.history(strong)][-1] == "merge"
    assert "superseded" in [v.change for v in memory.history(weak)]

    after = row_counts(memory)
    assert after["agent_memory_items"] == before["agent_memory_items"]  # nothing deleted
    assert all(after[t] >= before[t] for t in TABLES)
    again = run_maintenance(memory.store_id, pg_dsn)  # idempotent: nothing left to merge
    assert again["merged"] == 0 and row_counts(memory) == after


def test_a_pair_the_judge_keeps_apart_is_not_merged_by_maintenance(
    memory: Memory, pg_dsn: str
) -> None:
    """The dedup judge saved "Ana's brother lives in Kyoto" beside "Ana's sister lives in
    Kyoto" as two facts; maintenance then merged them at cosine 0.95 and the brother's record
    was superseded (a spec audit: "There is no similarity threshold - the judge decides").
    The threshold now only chooses the pairs the judge is asked about."""
    memory.configure(maintenance={"duplicate_threshold": 0.9})
    sister = memory.save({"category": "fact", "context": "Ana's sister lives in Kyoto"}).id
    brother = memory.save({"category": "fact", "context": "Ana's brother lives in Kyoto"}).id
    same = memory.save({"category": "fact", "context": "Ana's sister lives in Kyoto."}).id
    meta = run_maintenance(memory.store_id, pg_dsn)
    assert memory.get(brother).state == "current" and memory.get(sister).state == "current"
    assert memory.get(same).state == "superseded" and meta["merged"] == 1


def test_archive_then_confirm_restores(memory: Memory, pg_dsn: str) -> None:
    memory.configure(
        decay_per_type={"half_life_days": {"fact": 10}},
        maintenance={"archive_idle_days": 30},
    )
    faded_id = memory.save({"category": "fact", "context": "The old VPN host is vpn-3"}).id
    fresh = memory.save({"category": "fact", "context": "Deploys happen on Tuesdays"}).id
    # a type the card does not list never decays, so it is never archived, however idle
    kept = memory.save({"category": "preference", "context": "Likes the window seat"}).id
    with memory.db.connection() as conn:  # 100 days without use: ten half-lives
        conn.execute(
            "UPDATE agent_memory_items SET created_at = now() - interval '100 days',"
            " updated_at = now() - interval '100 days' WHERE item_id = ANY(%s)",
            ([faded_id, kept],),
        )
    unscored = memory.save({"category": "fact", "context": "Badge readers reset at 6am"})
    with memory.db.connection() as conn:
        conn.execute(
            "UPDATE agent_memory_items SET created_at = now() - interval '100 days'"
            " WHERE item_id = %s",
            (unscored.id,),
        )
    score_store(memory.db, memory.store_id)
    with memory.db.connection() as conn:  # as if the third came after the decay pass
        conn.execute("DELETE FROM item_scores WHERE item_id = %s", (unscored.id,))
    before = row_counts(memory)

    # decay scores are recorded before they are consumed: until decay is active, nothing faded
    assert run_maintenance(memory.store_id, pg_dsn)["archived"] == 0
    assert memory.get(faded_id).state == "current"
    with memory.db.connection() as conn:
        conn.execute(
            "INSERT INTO job_activations (store_id, job, active, activated_at, passed, actor)"
            " VALUES (%s, 'decay', true, now(), true, 'test')",
            (memory.store_id,),
        )
    before = row_counts(memory)
    meta = run_maintenance(memory.store_id, pg_dsn)
    assert meta["archived"] == 1 and meta["restored"] == 0
    assert memory.get(faded_id).state == "archived"
    assert memory.get(fresh).state == "current"
    assert memory.get(kept).state == "current"
    assert memory.get(unscored.id).state == "current"  # no score: nothing to go on
    assert [v.change for v in memory.history(faded_id)] == ["create", "archive"]
    assert row_counts(memory)["agent_memory_items"] == before["agent_memory_items"]

    # Said again: dedup on save merges into the archived record and brings it back.
    res = memory.save_with_dedup({"category": "fact", "context": "The old VPN host is vpn-3"})
    assert res.merged_into == faded_id
    assert memory.get(faded_id).state == "current"
    # Its stale score is still under the bar, but it was just confirmed: it stays current.
    meta = run_maintenance(memory.store_id, pg_dsn)
    assert meta["archived"] == 0 and meta["restored"] == 1
    assert memory.get(faded_id).state == "current"
    assert run_maintenance(memory.store_id, pg_dsn)["restored"] == 0  # counted once
    with memory.db.connection() as conn:
        passes = conn.execute(
            "SELECT archived, restored FROM maintenance_passes WHERE store_id = %s"
            " ORDER BY pass_id",
            (memory.store_id,),
        ).fetchall()
    assert [(p["archived"], p["restored"]) for p in passes] == [(0, 0), (1, 0), (0, 1), (0, 0)]


def test_maintenance_off_skips_the_store(memory: Memory, pg_dsn: str) -> None:
    memory.configure(maintenance={"enabled": False, "duplicate_threshold": 0.5})
    ids = [memory.save({"category": "fact", "context": "Office closes at 6pm"}).id]
    ids.append(memory.save({"category": "fact", "context": "The office closes at 6pm"}).id)
    before = row_counts(memory)
    meta = run_maintenance(memory.store_id, pg_dsn)
    assert meta["skipped"] == "maintenance is off for this store"
    assert meta["materialized"] is False
    assert [memory.get(i).state for i in ids] == ["current", "current"]
    assert row_counts(memory) == before
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM maintenance_passes WHERE store_id = %s",
            (memory.store_id,),
        ).fetchone()
    assert row["n"] == 0
