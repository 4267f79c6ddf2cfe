"""Commitments: fulfil and cancel (versions, events, only from open), the overdue sensor
announcing each commitment once, the analyst views and the CLI."""

from __future__ import annotations

from typing import Any

import dagster as dg
import pytest
from click.testing import CliRunner

from memory_pipelines.api import Memory
from memory_pipelines.cli import main
from memory_pipelines.defs.commitments.assets import overdue_events
from memory_pipelines.defs.commitments.sensors import overdue_commitments_sensor
from memory_pipelines.errors import ValidationError
from memory_pipelines.resources import StoreResource


def _promise(memory: Memory, text: str, due: str | None, **extra: Any) -> int:
    res = memory.save(
        {"category": "commitment", "context": text, "confidence": 8, "due_at": due, **extra}
    )
    assert res.saved, res
    return int(res.id)


def _events(memory: Memory, item_id: int) -> list[tuple[str, str]]:
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT kind, actor FROM events WHERE store_id = %s AND item_id = %s ORDER BY event_id",
            (memory.store_id, item_id),
        ).fetchall()
    return [(r["kind"], r["actor"]) for r in rows]


def test_fulfil_and_cancel_write_a_version_and_an_event(memory: Memory) -> None:
    a = _promise(
        memory, "Ana will send the signed contract to Mr Patel", "2030-05-01", owed_to="Patel"
    )
    b = _promise(memory, "Bruno will book the venue for the Porto offsite", "2030-06-01")
    done = memory.fulfil(a, actor="ana")
    assert done.status == "fulfilled" and memory.get(a).status == "fulfilled"
    assert [(v.change, v.actor) for v in memory.history(a)] == [
        ("create", ""),
        ("fulfil", "ana"),
    ]
    assert memory.history(a)[-1].snapshot.status == "fulfilled"
    assert _events(memory, a) == [("create", ""), ("fulfil", "ana")]
    assert memory.cancel(b, actor="bruno").status == "cancelled"
    assert [v.change for v in memory.history(b)] == ["create", "cancel"]
    assert _events(memory, b)[-1] == ("cancel", "bruno")


def test_only_an_open_commitment_changes_status(memory: Memory) -> None:
    c = _promise(memory, "Ana will review the quarterly budget draft for Lena", "2030-01-10")
    memory.cancel(c, actor="ana")
    with pytest.raises(ValidationError) as err:
        memory.fulfil(c, actor="ana")
    assert err.value.field == "status" and "is cancelled" in str(err.value)
    with pytest.raises(ValidationError, match="is cancelled"):
        memory.cancel(c, actor="ana")
    fact = memory.save({"category": "fact", "context": "The office moved to Rua Augusta 12"})
    with pytest.raises(ValidationError) as err:
        memory.fulfil(fact.id, actor="ana")
    assert err.value.field == "category" and "open, fulfilled, cancelled" in str(err.value)
    with pytest.raises(ValidationError, match="actor"):
        memory.fulfil(
            _promise(memory, "Ana will call the landlord about the leak", None), actor=" "
        )
    assert [v.change for v in memory.history(c)] == ["create", "cancel"]  # nothing more


def _tick(instance: dg.DagsterInstance, pg_dsn: str) -> Any:
    ctx = dg.build_sensor_context(instance=instance, resources={"store": StoreResource(dsn=pg_dsn)})
    return overdue_commitments_sensor(ctx)


def _announce(instance: dg.DagsterInstance, store_id: str, pg_dsn: str) -> Any:
    """The run the sensor asks for, executed here."""
    return dg.materialize(
        [overdue_events],
        partition_key=store_id,
        instance=instance,
        resources={"store": StoreResource(dsn=pg_dsn)},
    )


def test_overdue_is_announced_exactly_once(memory: Memory, pg_dsn: str) -> None:
    late = _promise(
        memory, "Ana will send Ines the revised onboarding plan", "2021-03-01", owed_to="Ines"
    )
    kept = _promise(memory, "Bruno will ship the invoice export to finance", "2021-03-02")
    memory.fulfil(kept, actor="ana")
    future = _promise(memory, "Ops will renew the TLS certificate for the API", "2099-01-01")
    undated = _promise(memory, "Ana will write the post-mortem for the outage", None)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        # The tick asks for a run (it shows as a requested run, not "skipped").
        [req] = [r for r in _tick(instance, pg_dsn) if r.partition_key == memory.store_id]
        assert req.tags["memory/why"] == "1 commitments newly overdue"
        assert req.run_key == f"overdue:{memory.store_id}:{late}:1"
        done = _announce(instance, memory.store_id, pg_dsn)
        [mat] = done.asset_materializations_for_node("overdue_events")
        assert mat.metadata[f"{memory.store_id}/announced"].value == 1
        after = _tick(instance, pg_dsn)
        assert isinstance(after, dg.SkipReason) or all(
            r.partition_key != memory.store_id for r in after
        )
        # Run again by hand: nothing to write, so no materialisation, an observation.
        again = _announce(instance, memory.store_id, pg_dsn)
        assert again.asset_materializations_for_node("overdue_events") == []
        assert again.asset_observations_for_node("overdue_events")
    assert [k for k, _ in _events(memory, late)] == ["create", "overdue"]
    for other in (kept, future, undated):
        assert "overdue" not in [k for k, _ in _events(memory, other)]
    with memory.db.connection() as conn:
        ev = conn.execute(
            "SELECT actor, payload FROM events WHERE kind = 'overdue' AND item_id = %s", (late,)
        ).fetchone()
    assert ev is not None and ev["payload"]["owed_to"] == "Ines"
    assert ev["actor"] == "overdue_commitments_sensor"
    # fulfilled late: still once, and the view says it was late
    memory.fulfil(late, actor="ana")
    assert [k for k, _ in _events(memory, late)].count("overdue") == 1


def test_views_and_listing(memory: Memory) -> None:
    memory.add_person("ana")
    a = _promise(
        memory, "Ana will send the quarterly report to the board", "2021-01-01", person="ana"
    )
    b = _promise(
        memory, "Ana will prepare the slides for the board meeting", "2099-01-01", person="ana"
    )
    c = _promise(
        memory, "Bruno will email the auditors the bank statements", "2021-02-01", owed_to="KPMG"
    )
    memory.fulfil(c, actor="ana")
    d = _promise(memory, "Bruno will order new laptops for the interns", None)
    memory.cancel(d, actor="ana")

    def ids(view: str) -> list[int]:
        with memory.db.connection() as conn:
            rows = conn.execute(
                f"SELECT item_id FROM {view} WHERE store_id = %s ORDER BY item_id",  # noqa: S608
                (memory.store_id,),
            ).fetchall()
        return [r["item_id"] for r in rows]

    assert ids("open_commitments") == [a, b]
    assert ids("overdue_commitments") == [a]
    assert ids("fulfilled_commitments") == [c] and ids("cancelled_commitments") == [d]
    with memory.db.connection() as conn:
        late = conn.execute(
            "SELECT late, fulfilled_at FROM fulfilled_commitments WHERE item_id = %s", (c,)
        ).fetchone()
        groups = conn.execute(
            "SELECT person_id, owed_to, status, overdue, n FROM commitments_by_person"
            " WHERE store_id = %s ORDER BY status, person_id, overdue",
            (memory.store_id,),
        ).fetchall()
    assert late is not None and late["late"] is True and late["fulfilled_at"] is not None
    assert [tuple(g.values()) for g in groups] == [
        (None, None, "cancelled", False, 1),
        (None, "KPMG", "fulfilled", False, 1),
        ("ana", None, "open", False, 1),
        ("ana", None, "open", True, 1),
    ]
    assert [c.item_id for c in memory.commitments(overdue=True)] == [a]
    assert [c.item_id for c in memory.commitments(person="ana")] == [a, b]
    with pytest.raises(ValidationError, match="status: must be one of open"):
        memory.commitments(status="done")


def test_cli(memory: Memory) -> None:
    runner = CliRunner()
    s = memory.store_id
    for args in (["commitments"], ["commitments", "fulfil"], ["commitments", "cancel"]):
        out = runner.invoke(main, [*args, "--help"])
        assert out.exit_code == 0 and "Usage" in out.output
    c = _promise(memory, "Ana will send the signed NDA back to Acme legal", "2021-05-01")
    listed = runner.invoke(main, ["commitments", "--store", s, "--overdue"])
    assert listed.exit_code == 0 and "OVERDUE" in listed.output and str(c) in listed.output
    done = runner.invoke(main, ["commitments", "fulfil", str(c), "--store", s, "--actor", "ana"])
    assert done.exit_code == 0, done.output
    again = runner.invoke(main, ["commitments", "cancel", str(c), "--store", s, "--actor", "ana"])
    assert again.exit_code == 2 and "is fulfilled" in again.output
    missing = runner.invoke(main, ["commitments", "fulfil", str(c), "--store", s])
    assert missing.exit_code == 2 and "--actor" in missing.output
