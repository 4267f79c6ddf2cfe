"""What the Dagster UI shows is true (issue 15, point 3): a stopped store's pipeline is flagged
stale, a job switched off records that nothing was done and no materialisation, each store's
figures are their own series, agents' turns are an external asset upstream of the pipeline,
and maintenance's rewrite of agent_memory_items is in the lineage. (The overdue sensor's ticks
ask for runs: tests/test_commitments.py.)"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import dagster as dg

from memory_pipelines.api import Memory
from memory_pipelines.core.due import Owed
from memory_pipelines.core.freshness import GRACE, allowance, judge
from memory_pipelines.core.settings import Extraction
from memory_pipelines.definitions import defs
from memory_pipelines.defs.evolution.assets import evolution
from memory_pipelines.defs.extraction.freshness import store_freshness_sensor
from memory_pipelines.defs.extraction.sensors import extraction_job
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)


def _resources(pg_dsn: str) -> dict:
    return {
        "store": StoreResource(dsn=pg_dsn),
        "embedder": EmbedderResource(),
        "model": ModelResource(),
    }


def test_freshness_rules() -> None:
    s = Extraction()
    owed = Owed(top_turn=9, last_turn_at=NOW, unembedded=0, windows=2)
    assert not judge(s, None, NOW, None).stale
    assert judge(s, owed, NOW, None).stale  # owed, never done
    long_ago = NOW - allowance(s, NOW) - timedelta(minutes=1)
    assert judge(s, owed, NOW, long_ago).stale
    assert not judge(s, owed, NOW, NOW - timedelta(minutes=5)).stale
    # waiting for a quiet conversation is the settings' choice, not a stopped pipeline
    assert not judge(s, owed, NOW, long_ago, waiting="conversation not quiet").stale
    off = Extraction(enabled=False)
    assert allowance(off, NOW) == GRACE
    assert not judge(off, owed, NOW, long_ago).stale  # extraction off: windows owe nothing
    daily = Extraction(cron="0 3 * * *")
    assert allowance(daily, NOW) == timedelta(days=1) + GRACE


def test_a_stopped_stores_pipeline_is_flagged_stale(memory: Memory, pg_dsn: str) -> None:
    running = Memory(memory.store_id + "-running", db=memory.db, embedder=memory.embedder)
    new = Memory(memory.store_id + "-new", db=memory.db, embedder=memory.embedder)
    for m in (memory, running, new):
        m.write_turns("c", [{"text": "We decided to move the offsite to Porto."}], embed=False)
    stores = [memory.store_id, running.store_id, new.store_id]
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", stores)
        # The running store's extraction runs (its check store_fresh rides along and passes).
        done = (
            defs()
            .resolve_job_def(extraction_job.name)
            .execute_in_process(partition_key=running.store_id, instance=instance)
        )
        fresh = [c for c in done.get_asset_check_evaluations() if c.check_name == "store_fresh"]
        assert [c.passed for c in fresh] == [True]
        # The other store's work was first seen owed long ago, and no run ever did it.
        since = (datetime.now(UTC) - timedelta(hours=3)).isoformat()
        cursor = json.dumps({"owed_since": {memory.store_id: since}, "stale": {}})
        ctx = dg.build_sensor_context(
            instance=instance, cursor=cursor, resources={"store": StoreResource(dsn=pg_dsn)}
        )
        result = store_freshness_sensor(ctx)
    verdicts = {e.partition: e for e in result.asset_events if e.partition in stores}
    assert verdicts[memory.store_id].passed is False
    assert "minutes past what" in verdicts[memory.store_id].metadata["why"].value
    assert verdicts[running.store_id].passed is True
    assert verdicts[new.store_id].passed is True  # work first seen now: within its allowance
    assert f"stale: {memory.store_id}" in (result.skip_reason.skip_message or "")
    state = json.loads(result.cursor)
    assert state["stale"][memory.store_id] is True and running.store_id not in state["owed_since"]


def test_a_job_switched_off_materialises_nothing(memory: Memory, pg_dsn: str) -> None:
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        result = dg.materialize(
            [evolution],
            partition_key=memory.store_id,
            instance=instance,
            resources=_resources(pg_dsn),
        )
        assert result.success
        assert result.asset_materializations_for_node("evolution") == []
        [seen] = result.asset_observations_for_node("evolution")
        assert "not active" in seen.metadata["skipped"].value
        assert instance.get_latest_materialization_event(dg.AssetKey("evolution")) is None


def test_a_run_for_a_store_that_does_not_exist_materialises_nothing(pg_dsn: str) -> None:
    """Found by a Dagster audit: the pipeline for a store nobody made failed at its windows,
    naming the store, after turn_embeddings and chunk_pyramid had recorded materialisations."""
    from memory_pipelines.defs.pyramid.assets import chunk_pyramid

    ghost = "no-such-store-here"
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [ghost])
        for asset in (turn_embeddings, chunk_pyramid):
            result = dg.materialize(
                [asset],
                partition_key=ghost,
                instance=instance,
                resources=_resources(pg_dsn),
                raise_on_error=False,
            )
            assert not result.success
            assert result.get_asset_materialization_events() == []
            [failure] = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
            assert f"store {ghost!r} does not exist" in str(failure.step_failure_data.error)


def test_each_stores_figures_are_its_own_series(memory: Memory, pg_dsn: str) -> None:
    other = Memory(memory.store_id + "-b", db=memory.db, embedder=memory.embedder)
    for m in (memory, other):
        m.write_turns("c", [{"text": "a note about the garden"}], embed=False)
    plotted = {}
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id, other.store_id])
        for m in (memory, other):
            res = dg.materialize(
                [turn_embeddings], partition_key=m.store_id, instance=instance,
                resources=_resources(pg_dsn),
            )  # fmt: skip
            [mat] = res.asset_materializations_for_node("turn_embeddings")
            plotted[m.store_id] = {
                k
                for k, v in mat.metadata.items()
                if isinstance(v, dg.IntMetadataValue | dg.FloatMetadataValue)
                and not k.startswith("dagster/")
            }
    assert plotted[memory.store_id] and plotted[other.store_id]
    assert all(k.startswith(f"{memory.store_id}/") for k in plotted[memory.store_id])
    assert not plotted[memory.store_id] & plotted[other.store_id]


def test_lineage_starts_at_agents_turns_and_shows_maintenance_rewriting_items() -> None:
    with dg.instance_for_test():
        graph = defs().get_repository_def().asset_graph
    turns = graph.get(dg.AssetKey("turns"))
    assert not turns.is_materializable and turns.partitions_def is not None
    assert dg.AssetKey("turns") in graph.get(dg.AssetKey("turn_embeddings")).parent_keys
    maint = graph.get(dg.AssetKey("maintenance"))
    assert maint.metadata["dagster/table_name"] == "agent_memory_items"
    lineage = maint.metadata["dagster/column_lineage"]
    deps = {d.asset_key for col in lineage.deps_by_column.values() for d in col}
    assert deps == {dg.AssetKey("memory_items")} and "state" in lineage.deps_by_column
    for after in ("reflection", "evolution"):  # they read the items as maintenance left them
        assert dg.AssetKey("maintenance") in graph.get(dg.AssetKey(after)).parent_keys
    assert maint.freshness_policy is not None
