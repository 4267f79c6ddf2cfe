"""Work is never silently dropped (issue 10, point 13): the new-turns sensor reads the work owed
from the store, so the work of a failed or cancelled run is asked for again (after Dagster's own
retries), a store whose runs keep failing is reported, and turns a killed run left unembedded
are embedded by the next run. Runs execute for real on a test instance; a failure is a run
whose database cannot be reached, or whose embedding model dies after its first batch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import dagster as dg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.definitions import ASSETS
from memory_pipelines.defs.extraction.sensors import (
    embed_job,
    evaluate_store,
    extraction_job,
    new_turns_sensor,
)
from memory_pipelines.defs.turns import assets as turn_assets
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store.db import Database


def _tick(instance: dg.DagsterInstance, pg_dsn: str, cursor: str | None) -> Any:
    ctx = dg.build_sensor_context(
        instance=instance, cursor=cursor, resources={"store": StoreResource(dsn=pg_dsn)}
    )
    return new_turns_sensor(ctx)


def _mine(result: Any, store_id: str) -> list[dg.RunRequest]:
    if not isinstance(result, dg.SensorResult):
        return []
    return [r for r in result.run_requests or [] if r.partition_key == store_id]


def _execute(
    instance: dg.DagsterInstance,
    req: dg.RunRequest,
    *,
    store: StoreResource,
    embedder: EmbedderResource | None = None,
    tags: dict[str, str] | None = None,
) -> dg.ExecuteInProcessResult:
    """The requested job run for real, as the daemon would launch it."""
    defs = dg.Definitions(
        assets=ASSETS,
        jobs=[extraction_job, embed_job],
        resources={
            "store": store,
            "embedder": embedder or EmbedderResource(),
            "model": ModelResource(),
        },
    )
    return defs.resolve_job_def(req.job_name).execute_in_process(
        partition_key=req.partition_key,
        instance=instance,
        tags={**req.tags, **(tags or {})},
        raise_on_error=False,
    )


def _unreachable(pg_dsn: str) -> StoreResource:
    """The same server, a database that does not exist: every run fails at its first step."""
    host = pg_dsn.split("host=")[-1]
    return StoreResource(dsn=f"postgresql://postgres:@/no_such_database?host={host}")


def _conversation(memory: Memory) -> None:
    memory.write_turn("c", "We decided to move the offsite to Porto because flights are cheaper.")
    memory.write_turn("c", "Sounds good, Porto it is.")


def test_a_failed_run_is_requested_again(memory: Memory, pg_dsn: str) -> None:
    _conversation(memory)
    s = memory.store_id
    with dg.instance_for_test() as instance:
        first = _tick(instance, pg_dsn, None)
        [req] = _mine(first, s)
        instance.add_dynamic_partitions("stores", [s])
        failed = _execute(instance, req, store=_unreachable(pg_dsn))
        assert not failed.success
        # Nothing new was written, yet the work is still owed: asked for again, a new key.
        second = _tick(instance, pg_dsn, first.cursor)
        [again] = _mine(second, s)
        assert again.job_name == "extraction" and again.run_key != req.run_key
        assert failed.run_id in again.tags["memory/why"]
        assert again.tags["dagster/max_retries"] == "2"  # Dagster retries a failure first
        done = _execute(instance, again, store=StoreResource(dsn=pg_dsn))
        assert done.success
        third = _tick(instance, pg_dsn, second.cursor)
        assert _mine(third, s) == []  # nothing owed any more
    assert memory.items(limit=10), "the retried run extracted the conversation"


def test_dagster_retries_first_then_a_failing_store_is_reported(
    memory: Memory, db: Database, pg_dsn: str, capfd: pytest.CaptureFixture
) -> None:
    _conversation(memory)
    s = memory.store_id
    with dg.instance_for_test(overrides={"run_retries": {"enabled": True}}) as instance:
        first = _tick(instance, pg_dsn, None)
        [req] = _mine(first, s)
        instance.add_dynamic_partitions("stores", [s])
        root = _execute(instance, req, store=_unreachable(pg_dsn))
        assert instance.get_run_by_id(root.run_id).tags["dagster/will_retry"] == "true"
        # Dagster's daemon re-executes it: the sensor does not ask for the same work twice.
        second = _tick(instance, pg_dsn, first.cursor)
        assert _mine(second, s) == []
        assert f"store {s} not due: Dagster retries run {root.run_id}" in capfd.readouterr().err
        # Two more runs fail, with no retry left (as Dagster's own retries would).
        last_run = root
        for _ in range(2):
            last_run = _execute(
                instance, req, store=_unreachable(pg_dsn), tags={"dagster/max_retries": "0"}
            )
        last = instance.get_run_record_by_id(last_run.run_id)
        assert last is not None and last.dagster_run.tags["dagster/will_retry"] == "false"
        # Three failures in a row: reported, and asked for again only after a wait.
        third = _tick(instance, pg_dsn, first.cursor)
        assert _mine(third, s) == []
        err = capfd.readouterr().err
        assert f"store {s}: 3 runs in a row failed, latest {last_run.run_id}" in err
        assert last.end_time is not None
        ended = datetime.fromtimestamp(last.end_time, UTC)
        with db.connection() as conn:
            early = evaluate_store(conn, instance, s, {}, ended + timedelta(minutes=4), {})
            late = evaluate_store(conn, instance, s, {}, ended + timedelta(minutes=6), {})
        assert early.request is None and early.failing
        assert late.request is not None and late.failing and last_run.run_id in late.why


class _DiesAfterOneBatch:
    """The real model, killed after it embedded one batch (as a kill -9 would leave it)."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls = real, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def embed_with_parts(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError("run worker killed")
        return self.real.embed_with_parts(*args, **kwargs)


class DyingEmbedder(EmbedderResource):
    def get(self) -> Any:
        return _DiesAfterOneBatch(super().get())


def test_turns_a_killed_run_left_unembedded_are_embedded_next(
    memory: Memory, pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turn_assets, "BATCH", 8)
    memory.configure(extraction={"enabled": False})
    notes = [{"text": f"note {i} about the garden"} for i in range(20)]
    memory.write_turns("c", notes, embed=False)
    s = memory.store_id

    def unembedded() -> int:
        with memory.db.connection() as conn:
            row = conn.execute(
                "SELECT count(*) AS n FROM turns WHERE store_id = %s AND embedding IS NULL", (s,)
            ).fetchone()
        return int(row["n"])

    with dg.instance_for_test() as instance:
        first = _tick(instance, pg_dsn, None)
        [req] = _mine(first, s)
        assert req.job_name == "embed_turns"
        instance.add_dynamic_partitions("stores", [s])
        killed = _execute(instance, req, store=StoreResource(dsn=pg_dsn), embedder=DyingEmbedder())
        assert not killed.success and unembedded() == 12  # one batch of 8 made it
        second = _tick(instance, pg_dsn, first.cursor)
        [again] = _mine(second, s)
        assert again.job_name == "embed_turns" and again.run_key != req.run_key
        assert "12 turns not embedded" in again.tags["memory/why"]
        done = _execute(instance, again, store=StoreResource(dsn=pg_dsn))
        assert done.success and unembedded() == 0
        assert (
            done.asset_materializations_for_node("turn_embeddings")[0]
            .metadata[f"{s}/embedded_now"]
            .value
            == 12
        )
        assert _mine(_tick(instance, pg_dsn, second.cursor), s) == []
    with memory.db.connection() as conn:
        dup = conn.execute(
            "SELECT count(*) AS n FROM (SELECT turn_id, ord FROM turn_sentences JOIN turns"
            " USING (turn_id) WHERE store_id = %s GROUP BY 1, 2 HAVING count(*) > 1) d",
            (s,),
        ).fetchone()
    assert dup["n"] == 0
