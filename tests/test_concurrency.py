"""Concurrency (issue 15, point 4): the project's dagster.yaml queues runs so that a store has
at most one run at a time and the machine a bounded number, and pools bound the steps that
load the model or the database across all runs."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest

from memory_pipelines.definitions import defs
from memory_pipelines.defs.partitions import DB_POOL, MODEL_POOL
from memory_pipelines.store.dagster_home import MAX_RUNS, POOL_LIMIT, URL_ENV, dagster_env


def test_the_instance_queues_one_run_per_store_and_bounds_the_pools(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = dagster_env(pg_dsn, tmp_path / "home")
    monkeypatch.setenv(URL_ENV, env[URL_ENV])
    instance = dg.DagsterInstance.from_config(env["DAGSTER_HOME"])
    try:
        config = instance.get_concurrency_config()
        queue = config.run_queue_config
        assert queue is not None and queue.max_concurrent_runs == MAX_RUNS
        assert queue.tag_concurrency_limits == [
            {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1}
        ]
        assert config.pool_config.default_pool_limit == POOL_LIMIT
        assert config.pool_config.pool_granularity.value == "run"
        assert type(instance.run_coordinator).__name__ == "QueuedRunCoordinator"
    finally:
        instance.dispose()


def test_every_step_is_in_a_pool_and_model_steps_in_the_model_pool() -> None:
    with dg.instance_for_test():
        repo = defs().get_repository_def()
    pools = {}
    for asset in repo.asset_graph.assets_defs:
        if not asset.is_executable or not asset.keys or asset.op.name == "store_fresh":
            continue
        pools[asset.op.name] = (asset.op.pool, asset.required_resource_keys)
    assert pools
    for name, (pool, needs) in pools.items():
        assert pool in (MODEL_POOL, DB_POOL), name
        if {"model", "embedder"} & set(needs):
            assert pool == MODEL_POOL, name
    assert pools["turn_embeddings"][0] == MODEL_POOL
    assert pools["decay_scores"][0] == DB_POOL
