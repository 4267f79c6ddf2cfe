"""A run costs what its work calls for (issue 15, point 1): the rollup and linkgen sensors
launch no run where a store owes nothing, and a launched run executes all its steps in one
process, with the model loaded once, under the executor the definitions give every job."""

from __future__ import annotations

import dagster as dg

from memory_pipelines.api import Memory
from memory_pipelines.definitions import defs
from memory_pipelines.defs.links.assets import link_graph
from memory_pipelines.defs.links.sensors import linkgen_sensor
from memory_pipelines.defs.pyramid.assets import chunk_pyramid
from memory_pipelines.defs.pyramid.sensors import rollup_sensor
from memory_pipelines.pipeline import reconstructable_job
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store.chunks import rollup_owed
from tests.pyramid_helpers import write


def _tick(sensor: dg.SensorDefinition, instance: dg.DagsterInstance, pg_dsn: str):
    ctx = dg.build_sensor_context(instance=instance, resources={"store": StoreResource(dsn=pg_dsn)})
    return sensor(ctx)


def _mine(result, stores: list[str]) -> list[dg.RunRequest]:
    if isinstance(result, dg.SkipReason):
        return []
    return [r for r in result if r.partition_key in stores]


def _materialize(asset, instance: dg.DagsterInstance, store: str, pg_dsn: str):
    return dg.materialize(
        [asset],
        partition_key=store,
        instance=instance,
        resources={
            "store": StoreResource(dsn=pg_dsn),
            "embedder": EmbedderResource(),
            "model": ModelResource(),
        },
    )


def test_rollup_sensor_asks_only_for_stores_owing_chunks(memory: Memory, pg_dsn: str) -> None:
    full = Memory(memory.store_id + "-full", db=memory.db, embedder=memory.embedder)
    write(full, "c", 1, 25)  # two complete batches of ten: two level-1 chunks owed
    write(memory, "c", 1, 9)  # no complete batch yet
    stores = [memory.store_id, full.store_id]
    with memory.db.connection() as conn:
        assert rollup_owed(conn, stores) == {full.store_id: 2}
    with dg.instance_for_test() as instance:
        assert isinstance(_tick(rollup_sensor, instance, pg_dsn), dg.SkipReason)  # no partition
        instance.add_dynamic_partitions("stores", stores)
        [req] = _mine(_tick(rollup_sensor, instance, pg_dsn), stores)
        assert req.partition_key == full.store_id and req.run_key.startswith("rollup:")
        assert req.tags["memory/why"] == "2 chunks to build"
        done = _materialize(chunk_pyramid, instance, full.store_id, pg_dsn)
        meta = done.asset_materializations_for_node("chunk_pyramid")[0].metadata
        assert meta[f"{full.store_id}/chunks_created"].value == 2
        # Nothing owed any more: no run at all, and the tick says why.
        after = _tick(rollup_sensor, instance, pg_dsn)
        assert _mine(after, stores) == []
        write(memory, "c", 10, 10)  # the tenth turn completes a batch
        [req] = _mine(_tick(rollup_sensor, instance, pg_dsn), stores)
        assert req.partition_key == memory.store_id


def test_linkgen_sensor_asks_only_for_stores_with_unread_items(memory: Memory, pg_dsn: str) -> None:
    quiet = Memory(memory.store_id + "-quiet", db=memory.db, embedder=memory.embedder)
    quiet.write_turn("c", "nothing to remember here")
    memory.save(
        {"category": "decision", "context": "picked sqlite for the importer", "confidence": 8}
    )
    memory.save(
        {"category": "fact", "context": "the importer runs offline on laptops", "confidence": 7}
    )
    stores = [memory.store_id, quiet.store_id]
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", stores)
        [req] = _mine(_tick(linkgen_sensor, instance, pg_dsn), stores)
        assert req.partition_key == memory.store_id and req.tags["memory/why"] == "2 items to link"
        assert _materialize(link_graph, instance, memory.store_id, pg_dsn).success
        assert _mine(_tick(linkgen_sensor, instance, pg_dsn), stores) == []


def test_every_job_runs_its_steps_in_the_run_process() -> None:
    with dg.instance_for_test():
        repo = defs().get_repository_def()
    executors = {job.name: job.executor_def.name for job in repo.get_all_jobs()}
    assert executors and set(executors.values()) == {"in_process"}, executors


def test_an_extraction_run_is_one_process(memory: Memory, pg_dsn: str) -> None:
    """The run as the daemon launches it (the job reconstructed from its module, its own
    executor): every step reports the same process."""
    memory.write_turns(
        "c",
        [{"text": f"We decided to buy {n} new chairs for the office."} for n in range(12)],
        embed=False,
    )
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        with dg.execute_job(
            reconstructable_job("extraction"),
            instance,
            tags={"dagster/partition": memory.store_id},
        ) as result:
            assert result.success
            starts = [e for e in result.all_events if e.event_type_value == "STEP_START"]
            assert len(starts) == 5  # four assets and the store_fresh check
            assert len({e.pid for e in starts}) == 1
            mat = result.asset_materializations_for_node("turn_embeddings")[0]
            assert mat.metadata[f"{memory.store_id}/embedded_now"].value == 12
