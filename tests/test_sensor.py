"""The new-turns sensor: partitions for new stores, due stores, run keys, a real instance."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import dagster as dg

from memory_pipelines.api import Memory
from memory_pipelines.defs.extraction.sensors import cron_ticked, new_turns_sensor
from memory_pipelines.resources import StoreResource


def _tick(instance: dg.DagsterInstance, pg_dsn: str, cursor: str | None):
    ctx = dg.build_sensor_context(
        instance=instance, cursor=cursor, resources={"store": StoreResource(dsn=pg_dsn)}
    )
    return new_turns_sensor(ctx)


def _mine(result, store_id: str) -> list[dg.RunRequest]:
    if isinstance(result, dg.SkipReason):
        return []
    return [r for r in result.run_requests if r.partition_key == store_id]


def test_sensor_requests_once_per_new_turns(memory: Memory, db, embedder, pg_dsn: str) -> None:
    memory.write_turn("c", "We decided to move the offsite to Porto because flights are cheaper.")
    memory.write_turn("c", "Sounds good.")
    off = Memory(memory.store_id + "-off", db=db, embedder=embedder)
    off.configure(extraction={"enabled": False})
    off.write_turns("c", [{"text": "hello"}], embed=False)
    with dg.instance_for_test() as instance:
        first = _tick(instance, pg_dsn, None)
        assert isinstance(first, dg.SensorResult)
        added = first.dynamic_partitions_requests[0].partition_keys
        assert memory.store_id in added and off.store_id in added
        [req] = _mine(first, memory.store_id)
        assert req.job_name == "extraction" and req.run_key.startswith(
            f"extract:{memory.store_id}:"
        )
        # extraction off: only its pending embeddings are asked for
        assert [r.job_name for r in _mine(first, off.store_id)] == ["embed_turns"]
        instance.add_dynamic_partitions("stores", list(added))

        second = _tick(instance, pg_dsn, first.cursor)
        assert _mine(second, memory.store_id) == []  # nothing new: no second run

        memory.write_turn("c", "Also: the budget is 4000 euros, fixed.")
        state = json.loads(first.cursor)
        state["stores"][memory.store_id]["at"] = "2000-01-01T00:00:00+00:00"  # long ago
        third = _tick(instance, pg_dsn, json.dumps(state))
        [again] = _mine(third, memory.store_id)
        assert again.run_key != req.run_key


def test_sensor_waits_for_quiet_period_and_schedule(memory: Memory, pg_dsn: str) -> None:
    memory.configure(extraction={"quiet_minutes": 30})
    memory.write_turn("c", "I'll send the contract to Mr Patel by Friday.")
    with dg.instance_for_test() as instance:
        result = _tick(instance, pg_dsn, None)
        assert _mine(result, memory.store_id) == []  # the chat is not quiet yet


def test_the_quiet_period_is_each_conversations(memory: Memory, pg_dsn: str) -> None:
    """A chat quiet for days is extracted while another chat of the store is live."""
    memory.configure(extraction={"quiet_minutes": 30})
    live = memory.write_turn("live", "Morning! Still sorting out the importer.")
    with dg.instance_for_test() as instance:
        assert _mine(_tick(instance, pg_dsn, None), memory.store_id) == []  # only a live chat
    old = datetime.now(UTC) - timedelta(days=2)
    said = ["I'll send the contract to Mr Patel by Friday.", "Great, thanks."]
    memory.write_turns("old", [{"text": t, "created_at": old} for t in said])
    memory.write_turn("live", "Back to the importer now.")
    with dg.instance_for_test() as instance:
        [req] = _mine(_tick(instance, pg_dsn, None), memory.store_id)
        assert req.job_name == "extraction"
    assert live.chat_id is not None


def test_cron_ticked() -> None:
    since = datetime(2024, 1, 1, 10, 0, tzinfo=UTC)
    assert cron_ticked("0 * * * *", "UTC", since, datetime(2024, 1, 1, 11, 0, tzinfo=UTC))
    assert not cron_ticked("0 * * * *", "UTC", since, datetime(2024, 1, 1, 10, 59, tzinfo=UTC))
    assert cron_ticked("0 3 * * *", "Europe/Lisbon", since, datetime(2024, 1, 2, 3, 0, tzinfo=UTC))


def test_a_run_whose_process_was_killed_frees_its_stores_place(memory: Memory, pg_dsn: str) -> None:
    """A `demo` killed with kill -9 left its run STARTED: it held the store's one place in the
    run queue for 4 hours and the sensor's runs waited behind it, with nothing said (an
    operations audit). The sensor marks failed a run this machine started in a process that is
    gone, says so, and asks for the store's work."""
    import os
    import subprocess
    import sys
    import uuid

    from memory_pipelines.defs.dead_runs import RUN_HOST, RUN_PID, this_machine

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    memory.write_turn("c", "We decided to move the offsite to Porto because flights are cheaper.")
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        runs = {}
        # killed; alive (this process); and the killed pid in a container of the same host
        # name, whose pids are its own: not this machine's to judge
        other = this_machine().rsplit("/", 1)[0] + "/pid:[1]"
        for name, pid, host in [
            ("killed", gone.pid, this_machine()),
            ("alive", os.getpid(), this_machine()),
            ("elsewhere", gone.pid, other),
        ]:
            run = dg.DagsterRun(
                job_name="extraction",
                run_id=str(uuid.uuid4()),
                status=dg.DagsterRunStatus.STARTED,
                tags={RUN_HOST: host, RUN_PID: str(pid), "dagster/partition": memory.store_id},
            )
            instance.add_run(run)
            runs[name] = run.run_id
        _tick(instance, pg_dsn, None)
        status = {name: instance.get_run_by_id(rid).status for name, rid in runs.items()}
        assert status == {
            "killed": dg.DagsterRunStatus.FAILURE,
            "alive": dg.DagsterRunStatus.STARTED,
            "elsewhere": dg.DagsterRunStatus.STARTED,
        }
        failure = [
            e
            for e in instance.all_logs(runs["killed"])
            if e.dagster_event and e.dagster_event.event_type_value == "PIPELINE_FAILURE"
        ]
        assert failure and "is gone" in (failure[0].message or "")
