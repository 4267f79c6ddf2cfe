"""The openai backend against a local server speaking the protocol: valid, invalid, retried."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import numpy as np
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.extract import WindowTurn
from memory_pipelines.core.judge import JudgeItem
from memory_pipelines.errors import ModelUnavailable
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.models.openai import OpenAIBackend
from tests.fake_openai import FakeOpenAI

V = np.zeros(384, dtype=np.float32)


def test_judge_answer_validated_and_retried_once() -> None:
    answers = ["not json at all", json.dumps({"action": "merge", "target": 1, "reason": "same"})]
    with FakeOpenAI(answers) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny", api_key="sk-test"))
        d = models.judge(
            JudgeItem("Up at 5:30", "fact"),
            [JudgeItem("Owns a cat", "fact"), JudgeItem("Gets up at 5:30", "fact")],
            V,
            np.stack([V, V]),
        )
    assert (d.action, d.target) == ("merge", 1)
    assert len(fake.requests) == 2 and fake.requests[0]["auth"] == "Bearer sk-test"
    [call] = models.drain()
    assert call.outcome == "ok" and call.tokens_in == 100 and call.tokens_out == 14
    assert "0: Owns a cat" in fake.requests[0]["body"]["messages"][1]["content"]


def test_invented_target_is_invalid_and_counted() -> None:
    bad = json.dumps({"action": "supersede", "target": 7})
    with FakeOpenAI([bad, bad]) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        with pytest.raises(Invalid):
            models.judge(JudgeItem("a", "fact"), [JudgeItem("b", "fact")], V, np.stack([V]))
    assert [c.outcome for c in models.drain()] == ["invalid"]


def test_an_endpoint_that_does_not_answer_is_named_with_where_it_is_set() -> None:
    """Found by a Dagster audit: a refused connection failed a run with httpx's bare
    "Connection refused", naming neither the endpoint nor the setting to check."""
    with FakeOpenAI([]) as fake:
        closed = fake.url  # the port is closed once the server stops
    models = Models(OpenAIBackend(closed, "tiny", timeout=5))
    with pytest.raises(ModelUnavailable) as err:
        models.judge(JudgeItem("a", "fact"), [JudgeItem("b", "fact")], V, np.stack([V]))
    message = str(err.value)
    assert f"{closed}/chat/completions" in message and "'tiny'" in message
    assert "MEMORY_LLM_BASE_URL" in message and "base_url" in message
    assert [c.outcome for c in models.drain()] == ["error"]


def test_extract_parses_items() -> None:
    answer = json.dumps(
        {
            "items": [
                {
                    "category": "preference",
                    "context": "Ana wants VAT shown",
                    "confidence": 9,
                    "from_seq": 3,
                    "to_seq": 3,
                }
            ]
        }
    )
    said = datetime.now(UTC)
    before = WindowTurn(2, "user", "Ana", "Invoices go out monthly", said, context=True)
    with FakeOpenAI([answer]) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        out = models.extract(
            [before, WindowTurn(3, "user", "Ana", "Always show VAT", said)], "", ["preference"]
        )
    assert out[0]["context"] == "Ana wants VAT shown" and out[0]["source"] == "machine"
    # the turn said before the window is shown to the model marked as context only
    user = fake.requests[0]["body"]["messages"][-1]["content"]
    shown = [json.loads(line) for line in user.split("Turns:\n", 1)[1].splitlines()]
    assert [(t["seq"], t.get("context_only", False)) for t in shown] == [(2, True), (3, False)]


def test_save_with_dedup_falls_back_when_answers_are_invalid(memory: Memory) -> None:
    memory.save_with_dedup({"category": "fact", "context": "Lives in Leeds", "confidence": 7})
    with FakeOpenAI(["{}", "{}"]) as fake:
        m2 = Memory(
            memory.store_id,
            db=memory.db,
            embedder=memory.embedder,
            models=Models(OpenAIBackend(fake.url, "tiny")),
        )
        res = m2.save_with_dedup(
            {"category": "fact", "context": "Lives in Leeds, near the park", "confidence": 7}
        )
    assert res.saved and res.reason is not None and "fallback" in res.reason
    with memory.db.connection() as conn:
        outcomes = [
            r["outcome"]
            for r in conn.execute(
                "SELECT outcome FROM model_calls WHERE store_id = %s ORDER BY call_id",
                (memory.store_id,),
            )
        ]
    assert "invalid" in outcomes


def test_a_models_greeting_and_guess_are_refused_by_the_save_policy(memory: Memory) -> None:
    """Whatever model reads the window, the save policy holds: its greeting and its guess are
    dropped and counted apart from invalid answers; its fact is a candidate."""
    from memory_pipelines.api.extraction import extract_pending, plan_windows

    memory.write_turns(
        "c",
        [
            {"text": "Hi! How are you today?", "speaker": "Ana"},
            {"text": "I might be allergic to kiwi, not sure.", "speaker": "Ana"},
            {"text": "We picked Postgres because ops already runs it.", "speaker": "Ana"},
        ],
    )
    said = [("Hi! How are you today?", 5), ("Might be allergic to kiwi", 2)]
    said.append(("Ana's team picked Postgres because ops already runs it", 6))
    items = [
        {"category": "fact", "context": t, "confidence": c, "from_seq": n, "to_seq": n}
        for n, (t, c) in enumerate(said, start=1)
    ]
    with FakeOpenAI([json.dumps({"items": items})] * 4) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        plan_windows(memory.db, memory.store_id)
        counts = extract_pending(memory.db, memory.store_id, models)
    assert (counts["candidates"], counts["dropped_by_policy"], counts["dropped_invalid"]) == (
        1,
        2,
        0,
    )


def test_a_model_gets_at_most_the_budget_of_saves_a_turn(memory: Memory) -> None:
    """The spec's budget (~1-2 saves a turn) is the write path's, whatever the model gives
    (found by a reader of the spec: a model's answer of any length was saved whole). A health
    or safety fact is never the one dropped."""
    from memory_pipelines.api.extraction import extract_pending, plan_windows
    from memory_pipelines.core.candidates import MAX_PER_TURN

    memory.write_turns(
        "c",
        [
            {"text": "Morning!", "speaker": "Ana"},
            {
                "text": "Moved to Porto, started at Corvane, bought a van, and I'm allergic to "
                "penicillin.",
                "speaker": "Ana",
            },  # fmt: skip
        ],
    )
    said = ["Ana moved to Porto", "Ana started a job at Corvane", "Ana bought a van",
            "Ana is allergic to penicillin"]  # fmt: skip
    items = [
        {"category": "fact", "context": t, "confidence": 6, "from_seq": 2, "to_seq": 2}
        for t in said
    ]
    with FakeOpenAI([json.dumps({"items": items})] * 4) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        plan_windows(memory.db, memory.store_id)
        counts = extract_pending(memory.db, memory.store_id, models)
    assert (counts["candidates"], counts["dropped_by_policy"]) == (MAX_PER_TURN, 2)
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT payload, valid, drop_reason FROM extraction_candidates WHERE store_id = %s"
            " ORDER BY ord",
            (memory.store_id,),
        ).fetchall()
    kept = [r["payload"]["context"] for r in rows if r["valid"]]
    assert kept == ["Ana moved to Porto", "Ana is allergic to penicillin"]
    assert {r["drop_reason"] for r in rows if not r["valid"]} == {
        "save policy: budget (at most 2 saves a turn)"
    }


def test_the_stores_budget_of_saves_a_turn_holds_for_a_model(memory: Memory) -> None:
    """The store's save policy card sets the budget (found by a second reader: the cap was
    two whatever the card said)."""
    from memory_pipelines.api.extraction import extract_pending, plan_windows

    memory.configure(save_policy={"budget_per_turn": 1})
    memory.write_turns(
        "c",
        [
            {"text": "Moved to Porto and bought a van.", "speaker": "Ana"},
            {"text": "Big month!", "role": "assistant"},
        ],
    )
    items = [
        {"category": "fact", "context": t, "confidence": 6, "from_seq": 1, "to_seq": 1}
        for t in ("Ana moved to Porto", "Ana bought a van")
    ]
    with FakeOpenAI([json.dumps({"items": items})] * 4) as fake:
        plan_windows(memory.db, memory.store_id)
        counts = extract_pending(memory.db, memory.store_id, Models(OpenAIBackend(fake.url, "t")))
    assert (counts["candidates"], counts["dropped_by_policy"]) == (1, 1)
