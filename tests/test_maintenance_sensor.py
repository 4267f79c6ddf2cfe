"""Maintenance runs at each store's own cron in its own time zone (the Maintenance card), not
at one time for every store; one store's bad settings stop no other store."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import dagster as dg

from memory_pipelines.api import Memory
from memory_pipelines.definitions import defs
from memory_pipelines.defs.maintenance.sensors import maintenance_requests, maintenance_sensor
from memory_pipelines.resources import StoreResource
from memory_pipelines.store.db import Database

# 02:30 UTC on a summer day: 04:30 in Paris, 14:30 in Auckland, 22:30 the day before in New York
NOW = datetime(2024, 6, 3, 2, 30, tzinfo=UTC)


def _log() -> dg.DagsterLogManager:
    return dg.build_sensor_context().log


def test_each_store_runs_at_its_own_time_in_its_own_zone(db: Database, embedder) -> None:
    paris = Memory("mnt-paris-" + NOW.strftime("%H%M"), db=db, embedder=embedder)
    utc = Memory("mnt-utc-" + NOW.strftime("%H%M"), db=db, embedder=embedder)
    off = Memory("mnt-off-" + NOW.strftime("%H%M"), db=db, embedder=embedder)
    paris.configure(maintenance={"cron": "0 4 * * *", "timezone": "Europe/Paris"})
    utc.configure(maintenance={"cron": "0 3 * * *", "timezone": "UTC"})  # the default time
    off.configure(maintenance={"enabled": False})
    stores = [paris.store_id, utc.store_id, off.store_id]
    since = (NOW - timedelta(hours=2)).isoformat()  # 00:30 UTC: 02:30 in Paris
    runs, cursor, lines = maintenance_requests(
        db, stores, dict.fromkeys(stores, since), NOW, _log()
    )
    # 04:00 Paris (02:00 UTC) has passed; 03:00 UTC has not, whatever the default says
    assert [r.partition_key for r in runs] == [paris.store_id]
    assert runs[0].run_key == f"maintenance:{paris.store_id}:2024-06-03T04:00:00+02:00"
    assert any("maintenance is off" in line for line in lines)
    # the same tick never runs twice: the cursor moved past it
    again, _, _ = maintenance_requests(db, stores, cursor, NOW + timedelta(minutes=5), _log())
    assert again == []
    # an hour later the UTC store's 03:00 has come, and only its
    later, _, _ = maintenance_requests(db, stores, cursor, NOW + timedelta(hours=1), _log())
    assert [r.partition_key for r in later] == [utc.store_id]


def test_a_store_first_seen_waits_for_its_next_tick(db: Database, embedder) -> None:
    m = Memory("mnt-new", db=db, embedder=embedder)
    m.configure(maintenance={"cron": "*/5 * * * *", "timezone": "UTC"})
    runs, cursor, _ = maintenance_requests(db, [m.store_id], {}, NOW, _log())
    assert runs == [] and cursor[m.store_id] == NOW.isoformat()
    runs, _, _ = maintenance_requests(db, [m.store_id], cursor, NOW + timedelta(minutes=6), _log())
    assert [r.partition_key for r in runs] == [m.store_id]


def test_a_store_that_cannot_be_read_stops_no_other(db: Database, embedder) -> None:
    good = Memory("mnt-good", db=db, embedder=embedder)
    good.configure(maintenance={"cron": "0 * * * *", "timezone": "UTC"})
    since = (NOW - timedelta(hours=3)).isoformat()
    seen = {"mnt-dropped-store": since, good.store_id: since}
    runs, _, lines = maintenance_requests(
        db, ["mnt-dropped-store", good.store_id], seen, NOW, _log()
    )
    assert [r.partition_key for r in runs] == [good.store_id]
    assert any(line.startswith("mnt-dropped-store: not evaluated") for line in lines)


def test_the_sensor_ships_on_and_keeps_a_cursor(pg_dsn: str, db: Database, embedder) -> None:
    m = Memory("mnt-sensor", db=db, embedder=embedder)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [m.store_id])
        ctx = dg.build_sensor_context(
            instance=instance, resources={"store": StoreResource(dsn=pg_dsn)}
        )
        result = maintenance_sensor(ctx)
        assert isinstance(result, dg.SkipReason) and m.store_id in (result.skip_message or "")
        assert m.store_id in json.loads(ctx.cursor or "{}")
        repo = defs().get_repository_def()
    assert maintenance_sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert "maintenance_sensor" in {s.name for s in repo.sensor_defs}
    assert "maintenance_schedule" not in {s.name for s in repo.schedule_defs}
    assert "maintenance_pass" in {j.name for j in repo.get_all_jobs()}
