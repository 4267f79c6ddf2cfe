"""One store's bad value stops no other store (issue 10, point 8): the new-turns sensor, the
per-store schedules and the overdue-commitments sensor evaluate each store on its own. The
poison is written straight into the database, as an older version (or a hand edit) would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import dagster as dg
import pytest
from psycopg.types.json import Jsonb

from memory_pipelines.api import Memory
from memory_pipelines.defs.commitments.assets import overdue_events
from memory_pipelines.defs.commitments.sensors import overdue_commitments_sensor
from memory_pipelines.defs.decay.schedules import decay_schedule
from memory_pipelines.defs.extraction.sensors import new_turns_sensor
from memory_pipelines.defs.links.sensors import linkgen_sensor
from memory_pipelines.defs.reflection.schedules import reflection_schedule
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.resources import StoreResource
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

LONG_AGO = "2000-01-01T00:00:00+00:00"


def _poison(db: Database, store_id: str, kind: str) -> None:
    with db.connection() as conn:
        if kind == "turn after year 9999":
            # 9999-12-31 at UTC-12 is year 10000 in UTC: Postgres holds it, Python cannot.
            conn.execute(
                "INSERT INTO turns (store_id, chat_id, seq, created_at, role, text, tsv, doc_len)"
                " SELECT store_id, chat_id, max(seq) + 1, '9999-12-31T23:59:59-12:00', 'user',"
                " 'from the far future', to_tsvector('simple', 'future'), 1"
                " FROM turns WHERE store_id = %s GROUP BY store_id, chat_id",
                (store_id,),
            )
            return
        card = {
            "bad cron": {"cron": "not a cron"},
            "bad time zone": {"cron": "0 * * * *", "timezone": "Mars/Base"},
            "broken settings row": "not an object",
        }[kind]
        conn.execute(
            "UPDATE stores SET extraction = %s WHERE store_id = %s", (Jsonb(card), store_id)
        )


@pytest.fixture
def poisoned(memory: Memory, db: Database, embedder: Embedder) -> Iterator[Memory]:
    bad = Memory(memory.store_id + "-bad", db=db, embedder=embedder)
    yield bad
    with db.connection() as conn:  # nothing poisoned is left for other tests to trip over
        stores_db.drop_store(conn, bad.store_id)


def _requests(result: object, store_id: str) -> list[dg.RunRequest]:
    if not isinstance(result, dg.SensorResult):
        return []
    return [r for r in result.run_requests or [] if r.partition_key == store_id]


@pytest.mark.parametrize(
    "kind", ["bad cron", "bad time zone", "broken settings row", "turn after year 9999"]
)
def test_new_turns_sensor_runs_the_other_stores(
    kind: str, memory: Memory, poisoned: Memory, pg_dsn: str, capfd: pytest.CaptureFixture
) -> None:
    for m in (memory, poisoned):
        m.write_turn("c", "We moved the offsite to Porto because flights are cheaper.")
        m.write_turn("c", "Fine by me, Porto it is.")
    _poison(memory.db, poisoned.store_id, kind)
    # The poisoned store was asked for before, so its schedule (cron, time zone) is consulted.
    cursor = json.dumps({"stores": {poisoned.store_id: {"at": LONG_AGO}}})
    with dg.instance_for_test() as instance:
        ctx = dg.build_sensor_context(
            instance=instance, cursor=cursor, resources={"store": StoreResource(dsn=pg_dsn)}
        )
        result = new_turns_sensor(ctx)
    [req] = _requests(result, memory.store_id)
    assert req.job_name == "extraction"
    assert _requests(result, poisoned.store_id) == []
    err = capfd.readouterr().err
    assert f"store {poisoned.store_id}: not evaluated" in err
    assert f"store {memory.store_id}: not evaluated" not in err


def test_schedules_run_the_other_stores(
    memory: Memory, poisoned: Memory, pg_dsn: str, capfd: pytest.CaptureFixture
) -> None:
    for m in (memory, poisoned):
        m.write_turn("c", "hello")
        m.save({"category": "fact", "context": "the importer runs offline", "confidence": 7})
    _poison(memory.db, poisoned.store_id, "broken settings row")
    gone = memory.store_id + "-gone"  # a partition left behind by a dropped store
    with memory.db.connection() as conn:
        for s in (memory.store_id, poisoned.store_id):
            conn.execute(
                "INSERT INTO job_activations (store_id, job, active, passed)"
                " VALUES (%s, 'reflection', true, true)",
                (s,),
            )
    tick = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id, poisoned.store_id, gone])
        ctx = dg.build_schedule_context(
            instance=instance,
            scheduled_execution_time=tick,
            resources={"store": StoreResource(dsn=pg_dsn)},
        )
        for schedule in (decay_schedule, reflection_schedule):
            runs = schedule(ctx)
            assert isinstance(runs, list), schedule.name
            assert [r.partition_key for r in runs] == [memory.store_id], schedule.name
        sensed = linkgen_sensor(
            dg.build_sensor_context(
                instance=instance, resources={"store": StoreResource(dsn=pg_dsn)}
            )
        )
        assert isinstance(sensed, list)
        assert [r.partition_key for r in sensed] == [memory.store_id]
    err = capfd.readouterr().err
    assert f"store {poisoned.store_id}: no run requested: extraction" in err
    assert f"store {gone}: no run requested" in err and "does not exist" in err


def test_overdue_sensor_announces_the_other_stores(memory: Memory, poisoned: Memory) -> None:
    ids = {}
    for m in (memory, poisoned):
        res = m.save(
            {
                "category": "commitment",
                "context": "Ana will send Ines the revised onboarding plan",
                "confidence": 8,
                "due_at": "2021-03-01",
            }
        )
        ids[m.store_id] = res.id
    with memory.db.connection() as conn:  # a date before year 1: Postgres holds it, Python not
        conn.execute(
            "UPDATE agent_memory_items SET due_at = '0044-03-15 BC' WHERE item_id = %s",
            (ids[poisoned.store_id],),
        )
    stores = [memory.store_id, poisoned.store_id]
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", stores)
        ctx = dg.build_sensor_context(
            instance=instance, resources={"store": StoreResource(dsn=memory.db.dsn)}
        )
        runs = overdue_commitments_sensor(ctx)
        assert sorted(r.partition_key for r in runs if r.partition_key in stores) == sorted(stores)
        outcome = {
            s: dg.materialize(
                [overdue_events],
                partition_key=s,
                instance=instance,
                resources={"store": StoreResource(dsn=memory.db.dsn)},
                raise_on_error=False,
            ).success
            for s in stores
        }
    # The poisoned store's own run fails (its error in that run's log); the other's succeeds.
    assert outcome == {memory.store_id: True, poisoned.store_id: False}
    with memory.db.connection() as conn:
        kinds = conn.execute(
            "SELECT store_id FROM events WHERE kind = 'overdue' AND item_id = ANY(%s)",
            (list(ids.values()),),
        ).fetchall()
    assert [r["store_id"] for r in kinds] == [memory.store_id]
