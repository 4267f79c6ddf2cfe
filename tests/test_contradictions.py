"""Contradictions: the local rules, the openai backend's answer, and the maintenance pass
flagging both records (no winner), each judgement a recorded model call, never judged twice."""

from __future__ import annotations

import json
from typing import Any

import dagster as dg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.contradiction import judge
from memory_pipelines.defs.maintenance.assets import maintenance
from memory_pipelines.defs.metadata import unscoped
from memory_pipelines.models.base import Invalid, Models
from memory_pipelines.models.openai import OpenAIBackend
from memory_pipelines.resources import EmbedderResource, ModelResource, StoreResource
from memory_pipelines.store import links as links_db
from tests.fake_openai import FakeOpenAI

CONTRADICT = [
    ("Ana is vegetarian", "Ana is not vegetarian"),
    ("Ana is vegetarian", "Ana is no longer vegetarian"),
    ("Ana is vegetarian", "Ana is vegan"),
    ("Drinks coffee every morning", "Doesn't drink coffee"),
    ("Ana stopped eating meat", "Ana eats meat"),
    ("Prefers tea to coffee", "Prefers coffee to tea"),
    ("Lives in Leeds", "Lives in York"),
    ("Tom lives in Leeds", "Tom moved to York"),
    ("Works at Acme", "Works at Globex"),
    ("Standup is at 9:30", "Standup is at 10:00"),
    ("The team standup starts at 9:30", "Standup at 10am"),
    ("Birthday is on 3 May", "Birthday is on 5 May"),
    ("Has 2 kids", "Has 3 kids"),
    ("Rent is £900 a month", "Rent is £1,100 a month"),
    ("Joined Acme in 2019", "Joined Acme in 2021"),
]
BOTH_TRUE = [
    ("Standup at 9:30 on Mondays", "Retro at 10:00 on Mondays"),  # another slot
    ("Ana likes Paris", "Ana likes Rome"),  # not single-valued
    ("Tom lives in Leeds", "Mia lives in York"),  # other subjects
    ("Lives in Leeds", "Lives in a flat in Leeds"),  # more detail
    ("Doesn't drink coffee after 3pm", "Drinks coffee every morning"),  # narrower negation
    ("Went to Rome in 2019", "Went to Rome in 2021"),  # two occasions
    ("Might move to York", "Lives in Leeds"),  # tentative
    ("Also works at Globex", "Works at Acme"),  # additional
    ("Runs 5 km on Tuesdays", "Runs 10 km on Saturdays"),  # another day
    ("Does not eat pork", "Does not drink alcohol"),
    ("Ana is vegetarian", "Ana is vegetarian"),
]


@pytest.mark.parametrize(("a", "b"), CONTRADICT)
def test_rules_find_contradictions_both_ways(a: str, b: str) -> None:
    assert judge(a, b).contradicts and judge(b, a).contradicts


@pytest.mark.parametrize(("a", "b"), BOTH_TRUE)
def test_rules_leave_records_that_can_both_be_true(a: str, b: str) -> None:
    assert not judge(a, b).contradicts and not judge(b, a).contradicts


def test_openai_contradicts_validated_and_retried() -> None:
    answers = [
        json.dumps({"contradicts": "yes"}),  # not a boolean: retried
        json.dumps({"contradicts": True, "reason": "diet changed"}),
    ]
    with FakeOpenAI(answers) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        res = models.contradicts("Ana is vegetarian", "Ana eats steak daily")
    assert res.contradicts and res.reason == "diet changed"
    assert len(fake.requests) == 2
    user = fake.requests[0]["body"]["messages"][1]["content"]
    assert user == "A: Ana is vegetarian\nB: Ana eats steak daily"  # no record ids
    [call] = models.drain()
    assert (call.tier, call.task, call.outcome) == ("classify", "contradiction", "ok")
    with FakeOpenAI(["{}", "not json"]) as fake:
        models = Models(OpenAIBackend(fake.url, "tiny"))
        with pytest.raises(Invalid):
            models.contradicts("a", "b")
    assert [c.outcome for c in models.drain()] == ["invalid"]


def run(store_id: str, pg_dsn: str, model: ModelResource | None = None) -> dict[str, Any]:
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("stores", [store_id])
        result = dg.materialize(
            [maintenance],
            partition_key=store_id,
            instance=instance,
            resources={
                "store": StoreResource(dsn=pg_dsn),
                "embedder": EmbedderResource(),
                "model": model or ModelResource(),
            },
        )
    assert result.success
    mat = result.asset_materializations_for_node("maintenance")[0]
    return unscoped(mat.partition or "", mat.metadata)


def _calls(memory: Memory) -> list[dict[str, Any]]:
    with memory.db.connection() as conn:
        return conn.execute(
            "SELECT tier, task, backend, outcome FROM model_calls WHERE store_id = %s",
            (memory.store_id,),
        ).fetchall()


def test_contradictions_flag_both_records_and_pick_no_winner(memory: Memory, pg_dsn: str) -> None:
    memory.add_person("ana")
    memory.add_person("ben")
    memory.configure(maintenance={"check_contradictions": True})

    def save(text: str, person: str | None = "ana") -> int:
        return memory.save({"category": "fact", "context": text, "person": person}).id

    veg, not_veg = save("Ana is vegetarian"), save("Ana is not vegetarian")
    leeds, york = save("Lives in Leeds"), save("Lives in York")  # cosine 0.5: linked instead
    bens = save("Ana is not vegetarian", person="ben")  # another person's record: never paired
    with memory.db.connection() as conn:
        links_db.add_link(conn, memory.store_id, "item", leeds, "item", york, "relates_to")

    meta = run(memory.store_id, pg_dsn)
    # 0.97 alike and one category, yet not merged: a negation is no duplicate
    assert meta["merged"] == 0 and meta["contested"] == 2
    calls = _calls(memory)
    assert meta["judged"] == len(calls) >= 2
    assert {(c["tier"], c["task"], c["backend"], c["outcome"]) for c in calls} == {
        ("classify", "contradiction", "local", "ok")
    }
    for a, b in ((veg, not_veg), (leeds, york)):
        ra, rb = memory.get(a), memory.get(b)
        assert ra.state == rb.state == "current"  # nobody wins
        assert ra.contested and rb.contested
        assert ra.contested_with == [b] and rb.contested_with == [a]
        assert [v.change for v in memory.history(a)] == ["create", "contest"]
    assert not memory.get(bens).contested
    with memory.db.connection() as conn:
        events = conn.execute(
            "SELECT item_id, payload FROM events WHERE store_id = %s AND kind = 'contest'",
            (memory.store_id,),
        ).fetchall()
    assert {(e["item_id"], e["payload"]["with"]) for e in events} == {
        (veg, not_veg), (not_veg, veg), (leeds, york), (york, leeds),
    }  # fmt: skip

    again = run(memory.store_id, pg_dsn)  # same wording: nothing judged again, no call
    assert again["judged"] == 0 and again["contested"] == 0 and len(_calls(memory)) == len(calls)

    with memory.db.connection() as conn:  # a new wording of one side is judged again
        conn.execute(
            "UPDATE agent_memory_items SET context = 'Lives in central York' WHERE item_id = %s",
            (york,),
        )
    third = run(memory.store_id, pg_dsn)
    assert third["judged"] >= 1 and memory.get(york).contested_with == [leeds]


def test_invalid_answers_are_counted_and_not_asked_again(memory: Memory, pg_dsn: str) -> None:
    memory.configure(maintenance={"check_contradictions": True})
    for text in ("Standup is at 9:30", "Standup is at 10:00"):
        memory.save({"category": "fact", "context": text})
    with FakeOpenAI(["maybe", "still not json"]) as fake:
        model = ModelResource(backend="openai", base_url=fake.url, model="tiny")
        meta = run(memory.store_id, pg_dsn, model)
        assert meta["judged"] == 1 and meta["answers_invalid"] == 1 and meta["contested"] == 0
        assert len(fake.requests) == 2  # asked, then retried once
        assert run(memory.store_id, pg_dsn, model)["judged"] == 0
        assert len(fake.requests) == 2
    assert [c["outcome"] for c in _calls(memory)] == ["invalid"]
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT contradicts, backend, model FROM contradiction_checks WHERE store_id = %s",
            (memory.store_id,),
        ).fetchone()
    assert row == {"contradicts": None, "backend": "openai", "model": "tiny"}


def test_a_passs_budget_takes_each_persons_pairs_in_turn(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One person's many near pairs never hold another's back: with a budget of two
    judgements, ben's one pair is judged in the first pass beside the nearest of ana's (before,
    the nearest pairs of the store went first, all hers)."""
    from memory_pipelines.api import maintenance as api_maintenance
    from memory_pipelines.store import maintenance as maint_db

    memory.add_person("ana")
    memory.add_person("ben")

    def save(text: str, person: str) -> int:
        return memory.save({"category": "fact", "context": text, "person": person}).id

    for colour in ("blue", "green", "red", "yellow"):  # six pairs at cosine 0.9
        save(f"Ana's favourite colour is {colour}", "ana")
    bens = {save("Ben lives in Leeds", "ben"), save("Ben moved to York", "ben")}  # 0.69
    monkeypatch.setattr(api_maintenance, "MAX_JUDGEMENTS", 2)
    out = api_maintenance.contradiction_pass(memory.db, memory.store_id, memory.models)
    assert out["judged"] == 2 and out["judgements_pending"] >= 1, out
    with memory.db.connection() as conn:
        judged = set(maint_db.judged_pairs(conn, memory.store_id))
    assert tuple(sorted(bens)) in judged, judged


def test_persons_past_the_budget_take_the_first_turn_in_their_turn() -> None:
    """With more persons holding pairs than a pass's budget, the same persons led every pass
    (a review's point): the first turn moves on with the pairs judged so far."""
    from memory_pipelines.api.maintenance import _taking_turns

    todo = [("ana", 1), ("ana", 2), ("ben", 1), ("cy", 1)]
    assert _taking_turns(todo, lambda t: t[0]) == [("ana", 1), ("ben", 1), ("cy", 1), ("ana", 2)]
    firsts = {_taking_turns(todo, lambda t: t[0], start=n)[0][0] for n in range(3)}
    assert firsts == {"ana", "ben", "cy"}
