"""The Definitions load, and the embedding asset materialises for a store partition."""

from __future__ import annotations

import dagster as dg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.definitions import defs
from memory_pipelines.defs.partitions import stores_partitions
from memory_pipelines.defs.turns.assets import turn_embeddings
from memory_pipelines.resources import EmbedderResource, StoreResource


def test_definitions_load() -> None:
    # A fresh instance: Dagster keeps a thread's last test instance around after it closes.
    with dg.instance_for_test():
        d = defs()
        repo = d.get_repository_def()
    keys = {k.to_user_string() for k in repo.asset_graph.get_all_asset_keys()}
    assert {
        "turn_embeddings",
        "conversation_windows",
        "extracted_candidates",
        "memory_items",
    } <= keys
    assert {
        "new_turns_sensor",
        "rollup_sensor",
        "linkgen_sensor",
        "overdue_commitments_sensor",
        "store_freshness_sensor",
        "maintenance_sensor",
    } <= {s.name for s in d.sensors or []}
    assert {"reflection", "evolution"} <= keys


def test_every_defs_module_is_loaded_and_every_domain_documented() -> None:
    """definitions.py walks defs/: whatever a domain module defines is in the Definitions
    without being listed, and every domain folder says in a README what its tables are."""
    import importlib
    import pkgutil
    from pathlib import Path

    import memory_pipelines.defs as defs_pkg

    found: dict[str, set[str]] = {"asset": set(), "job": set(), "schedule": set(), "sensor": set()}
    for info in pkgutil.walk_packages(defs_pkg.__path__, "memory_pipelines.defs."):
        for value in vars(importlib.import_module(info.name)).values():
            if isinstance(value, dg.AssetsDefinition):
                found["asset"] |= {k.to_user_string() for k in value.keys}
            elif isinstance(value, dg.JobDefinition) or hasattr(value, "selection"):
                # define_asset_job's result is not a public type: an asset job has a selection
                found["job"].add(value.name)
            elif isinstance(value, dg.ScheduleDefinition):
                found["schedule"].add(value.name)
            elif isinstance(value, dg.SensorDefinition):
                found["sensor"].add(value.name)
    with dg.instance_for_test():
        d = defs()
        repo = d.get_repository_def()
    assert found["asset"] <= {k.to_user_string() for k in repo.asset_graph.get_all_asset_keys()}
    assert found["job"] <= {j.name for j in repo.get_all_jobs()}
    assert found["schedule"] == {s.name for s in repo.schedule_defs}
    assert found["sensor"] == {s.name for s in repo.sensor_defs}
    assert len(found["asset"]) >= 10 and found["schedule"] and found["sensor"]
    domains = [p for p in Path(defs_pkg.__path__[0]).iterdir() if (p / "__init__.py").exists()]
    assert domains and [p.name for p in domains if not (p / "README.md").exists()] == []


def test_turn_embeddings_materialises(memory: Memory, pg_dsn: str) -> None:
    memory.write_turns(
        "c", [{"text": f"turn number {i} about gardening"} for i in range(12)], embed=False
    )
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(stores_partitions.name, [memory.store_id])
        result = dg.materialize(
            [turn_embeddings],
            partition_key=memory.store_id,
            instance=instance,
            resources={"store": StoreResource(dsn=pg_dsn), "embedder": EmbedderResource()},
        )
        assert result.success
        mat = result.asset_materializations_for_node("turn_embeddings")[0]
        assert mat.metadata[f"{memory.store_id}/embedded_now"].value == 12
        checks = result.get_asset_check_evaluations()
        assert checks[0].passed
    with memory.db.connection() as conn:
        assert (
            conn.execute(
                "SELECT count(*) AS n FROM turns WHERE store_id = %s AND embedding IS NULL",
                (memory.store_id,),
            ).fetchone()["n"]
            == 0
        )


def test_a_misspelt_model_backend_is_refused_before_a_run_starts() -> None:
    """Found by a Dagster audit: backend "opena1" on the model resource ran extraction on the
    store card's local backend without a word; now the run's config is refused at its start."""
    job = defs().resolve_job_def("extraction")
    config = {"resources": {"model": {"config": {"backend": "opena1"}}}}
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", ["misspelt"])
        with pytest.raises(dg.DagsterInvalidConfigError, match="opena1"):
            job.execute_in_process(partition_key="misspelt", instance=instance, run_config=config)
