"""decay@v1: the half-life math, and the asset writing item_scores without touching items."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import dagster as dg
import polars as pl
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.decay import histogram, histogram_markdown, salience
from memory_pipelines.definitions import defs
from memory_pipelines.defs.decay.assets import decay_scores
from memory_pipelines.defs.decay.schedules import decay_schedule
from memory_pipelines.defs.links.sensors import linkgen_sensor
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import item_reads

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)


def _row(item_id: int, category: str, idle_days: float, **kw: Any) -> dict[str, Any]:
    at = NOW - timedelta(days=idle_days)
    return {
        "item_id": item_id,
        "category": category,
        "confidence": 8,
        "importance": None,
        "last_recalled_at": None,
        "last_confirmed_at": None,
        "updated_at": at,
        "created_at": at,
        **kw,
    }


def _scores(rows: list[dict[str, Any]], half_lives: dict[str, float]) -> dict[int, dict]:
    out = salience(pl.DataFrame(rows), half_lives, NOW)
    return {r["item_id"]: r for r in out.iter_rows(named=True)}


def test_salience_halves_per_idle_half_life() -> None:
    s = _scores(
        [_row(1, "fact", 30), _row(2, "fact", 60), _row(3, "fact", 0), _row(4, "fact", -2)],
        {"fact": 30.0},
    )
    base = 8 / 10 * 0.75
    assert s[1]["base"] == pytest.approx(base) and s[1]["idle_days"] == pytest.approx(30)
    assert s[1]["salience"] == pytest.approx(base / 2)
    assert s[2]["salience"] == pytest.approx(base / 4)
    assert s[3]["salience"] == pytest.approx(base)
    assert s[4]["idle_days"] == 0 and s[4]["salience"] == pytest.approx(base)  # clock skew


def test_unlisted_category_never_decays_and_importance_scales_base() -> None:
    s = _scores([_row(1, "hobby", 3650), _row(2, "fact", 0, importance=10)], {"fact": 30.0})
    assert s[1]["half_life_days"] is None and s[1]["salience"] == pytest.approx(0.6)
    assert s[2]["base"] == pytest.approx(0.8)  # 8/10 * (0.5 + 10/20)


def test_a_recall_or_confirmation_resets_the_idle_clock() -> None:
    rows = [
        _row(1, "fact", 90),
        _row(2, "fact", 90, last_recalled_at=NOW),
        _row(3, "fact", 90, last_recalled_at=NOW - timedelta(days=60),
             last_confirmed_at=NOW - timedelta(days=30)),
    ]  # fmt: skip
    s = _scores(rows, {"fact": 30.0})
    assert s[1]["salience"] == pytest.approx(0.6 / 8)
    assert s[2]["salience"] == pytest.approx(0.6) and s[2]["idle_since"] == NOW
    assert s[3]["idle_days"] == pytest.approx(30)  # the later of the two uses


def test_histogram_buckets() -> None:
    counts = histogram(pl.Series([0.0, 0.05, 0.1, 0.55, 0.99, 1.0, None]))
    assert counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
    assert "| 0.9-1.0 | 2 |" in histogram_markdown(counts)


def test_decay_asset_writes_scores_and_never_changes_items(memory: Memory, pg_dsn: str) -> None:
    memory.configure(decay_per_type={"half_life_days": {"fact": 10}})
    ids = [
        memory.save({"category": c, "context": t, "confidence": 8}).id
        for c, t in [
            ("fact", "The office wifi password rotates every month"),
            ("fact", "Deploys happen on Tuesdays after the standup"),
            ("hobby", "Ana collects vintage synthesizers"),
        ]
    ]
    with memory.db.connection() as conn:  # ten days idle: one half-life for facts
        conn.execute(
            "UPDATE agent_memory_items SET updated_at = now() - interval '10 days'"
            " WHERE item_id = ANY(%s)",
            (ids,),
        )
    before = {i.item_id: i for i in memory.items()}

    def run() -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
        with dg.instance_for_test() as instance:
            instance.add_dynamic_partitions("stores", [memory.store_id])
            result = dg.materialize(
                [decay_scores],
                partition_key=memory.store_id,
                instance=instance,
                resources={
                    "store": StoreResource(dsn=pg_dsn),
                    "embedder": EmbedderResource(),
                    "model": ModelResource(),
                },
            )
        assert result.success
        mat = result.asset_materializations_for_node("decay_scores")[0]
        with memory.db.connection() as conn:
            rows = conn.execute(
                "SELECT * FROM item_scores WHERE store_id = %s", (memory.store_id,)
            ).fetchall()
        assert {r["run_id"] for r in rows} == {result.run_id}
        return {r["item_id"]: r for r in rows}, unscoped(mat.partition or "", mat.metadata)

    scores, meta = run()
    assert set(scores) == set(ids)
    assert scores[ids[0]]["salience"] == pytest.approx(0.3, abs=1e-3)  # 0.6 halved
    assert (
        scores[ids[2]]["salience"] == pytest.approx(0.6)
        and scores[ids[2]]["half_life_days"] is None
    )
    assert meta["dagster/row_count"] == 3 and meta["current_items"] == 3
    assert meta["below_archive_threshold"] == 0 and meta["archive_below"] == 0.2
    assert meta["mean_salience"] == pytest.approx((0.3 + 0.3 + 0.6) / 3, abs=1e-3)
    # a hair more than one half-life has passed by the time it runs: just under 0.3
    assert meta["salience_counts"] == [0, 0, 2, 0, 0, 0, 1, 0, 0, 0]
    after = {i.item_id: i for i in memory.items()}
    assert after == before  # confidence, state, timestamps: nothing changed, nothing deleted

    with memory.db.connection() as conn:  # recalled now: back to its base
        item_reads.touch_items(conn, [ids[0]])
    again, _ = run()
    assert again[ids[0]]["salience"] == pytest.approx(0.6, abs=1e-3)
    assert again[ids[1]]["salience"] == pytest.approx(0.3, abs=1e-3)
    assert len(again) == 3  # rewritten in place, one row per item


def test_schedules_ship_as_the_spec_says() -> None:
    assert linkgen_sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert decay_schedule.default_status == dg.DefaultScheduleStatus.STOPPED
    assert decay_schedule.execution_timezone == "UTC"
    # A live instance in context: after another test's instance_for_test has closed, Dagster
    # still points its defs-state storage at the closed one and loading Definitions fails.
    with dg.instance_for_test():
        repo = defs().get_repository_def()
    assert {"decay_schedule"} <= {s.name for s in repo.schedule_defs}
    assert "linkgen_sensor" in {s.name for s in repo.sensor_defs}
    keys = {k.to_user_string() for k in repo.asset_graph.get_all_asset_keys()}
    assert {"link_graph", "decay_scores"} <= keys
