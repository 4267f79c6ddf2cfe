"""The chunk_pyramid asset and its check through Dagster, the rollup sensor, and the openai
summariser against a local server speaking the protocol."""

from __future__ import annotations

import json

import dagster as dg
import numpy as np
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.pyramid import FALLBACK_MODEL
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.defs.pyramid.assets import chunk_pyramid
from memory_pipelines.defs.pyramid.sensors import rollup_sensor
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.models.openai import OpenAIBackend
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from tests.fake_openai import FakeOpenAI
from tests.pyramid_helpers import chunk_rows, roll, write


def _materialize(memory: Memory, pg_dsn: str) -> dg.ExecuteInJobResult:
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [memory.store_id])
        return dg.materialize(
            [chunk_pyramid],
            partition_key=memory.store_id,
            instance=instance,
            resources={
                "store": StoreResource(dsn=pg_dsn),
                "embedder": EmbedderResource(),
                "model": ModelResource(),
            },
            raise_on_error=False,
        )


def _meta(result: dg.ExecuteInJobResult) -> dict:
    mat = result.asset_materializations_for_node("chunk_pyramid")[0]
    return unscoped(mat.partition or "", mat.metadata)


def test_asset_materialises_with_metadata_and_its_check(memory: Memory, pg_dsn: str) -> None:
    write(memory, "c", 1, 105)
    result = _materialize(memory, pg_dsn)
    assert result.success
    meta = _meta(result)
    assert meta["dagster/table_name"] == "chunks" and meta["dagster/row_count"] == 11
    assert (meta["created_l1"], meta["created_l2"], meta["total_l1"], meta["total_l2"]) == (
        10,
        1,
        10,
        1,
    )
    assert meta["turns_covered"] == 100 and meta["turns_waiting"] == 5 and meta["seconds"] >= 0
    [check] = result.get_asset_check_evaluations()
    assert check.check_name == "pyramid_contiguous" and check.passed

    again = _meta(_materialize(memory, pg_dsn))
    assert again["chunks_created"] == 0 and again["total_l1"] == 10

    with memory.db.transaction() as conn:  # plant a gap: the check run by the asset fails
        conn.execute(
            "DELETE FROM chunks WHERE store_id = %s AND level = 1 AND seq = 5", (memory.store_id,)
        )
    failed = _materialize(memory, pg_dsn)
    [check] = failed.get_asset_check_evaluations()
    assert not check.passed and check.metadata["problems"].value >= 1
    assert not failed.success  # a blocking check: the step fails, nothing after it runs


def test_rollup_sensor_ships_running_every_15_minutes() -> None:
    # What it asks for, and when it asks for nothing: tests/test_fixed_cost.py.
    assert rollup_sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert rollup_sensor.minimum_interval_seconds == 15 * 60
    assert rollup_sensor.job_name == "rollup"


TEXTS = ["Ana (4 March 2024): We moved the offsite to Porto.", "Ben (4 March 2024): Fine by me."]


def test_openai_summary_validated_and_retried() -> None:
    too_long = json.dumps({"summary": "word " * 200})
    good = json.dumps({"summary": "Ana moved the 4 March offsite to Porto; Ben agreed."})
    with FakeOpenAI([too_long, good]) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        out = models.summarise(TEXTS, max_words=20)
    assert out == "Ana moved the 4 March offsite to Porto; Ben agreed."
    [call] = models.drain()
    assert (call.task, call.tier, call.outcome, call.tokens_in) == (
        "summarise",
        "generate",
        "ok",
        100,
    )
    body = fake.requests[0]["body"]
    assert "at most 20 words" in body["messages"][0]["content"]
    assert "1. Ana (4 March 2024): We moved" in body["messages"][1]["content"]
    with FakeOpenAI(["{}", json.dumps({"summary": ""})]) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        with pytest.raises(Invalid):
            models.summarise(TEXTS, np.zeros((2, 384), dtype=np.float32))
    assert [c.outcome for c in models.drain()] == ["invalid"]


def test_rollup_through_openai_falls_back_to_local_on_invalid_answers(memory: Memory) -> None:
    write(memory, "c", 1, 20)
    answers = [json.dumps({"summary": "Melanie and Caroline talked pottery in Boston."})]
    answers += ["not json", "still not json"]  # the second chunk's answer: invalid twice
    with FakeOpenAI(answers) as fake:
        res = roll(memory, models=Models(OpenAIBackend(fake.url, "tiny")))
    assert res["created"] == {1: 2} and res["summaries_fallback"] == 1
    first, second = chunk_rows(memory)
    assert first["model"] == "tiny" and first["summary"].startswith("Melanie and Caroline")
    assert second["model"] == FALLBACK_MODEL and "Boston" in second["summary"]
    with memory.db.connection() as conn:
        outcomes = [
            r["outcome"]
            for r in conn.execute(
                "SELECT outcome FROM model_calls WHERE store_id = %s ORDER BY call_id",
                (memory.store_id,),
            )
        ]
    assert outcomes == ["ok", "invalid"]
