"""Gated jobs: activation only on a passing evaluation, one job at a time; ranking ignores decay
salience and reflection's insights until their job is active; the evaluation itself."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.jobs import activate_job, deactivate_job, is_active, job_status
from memory_pipelines.api.reflection import reflect
from memory_pipelines.cli import main
from memory_pipelines.core.ranking import KIND_WEIGHTS, SALIENCE_WEIGHT
from memory_pipelines.errors import ValidationError
from memory_pipelines.evals.activation import MIN_PROBES, evaluate_job
from memory_pipelines.store import jobs as jobs_db


def _recorded(memory: Memory, job: str, passed: bool) -> int:
    with memory.db.transaction() as conn:
        row = jobs_db.record_evaluation(
            conn, memory.store_id, job, "self_recall@10", 0.9, 0.9 if passed else 0.5, passed, {}
        )
    return int(row["evaluation_id"])


def test_activation_needs_the_latest_evaluation_to_have_passed(memory: Memory) -> None:
    db, s = memory.db, memory.store_id
    with pytest.raises(ValidationError) as err:
        activate_job(db, s, "decay", 10**12)
    assert err.value.field == "evaluation" and "jobs evaluate decay" in str(err.value)
    failed = _recorded(memory, "decay", passed=False)
    with pytest.raises(ValidationError, match="did not pass"):
        activate_job(db, s, "decay", failed)
    with pytest.raises(ValidationError, match="not an evaluation of evolution"):
        activate_job(db, s, "evolution", failed)
    with pytest.raises(ValidationError, match="job: must be one of reflection, evolution, decay"):
        activate_job(db, s, "linkgen", failed)
    older_pass = _recorded(memory, "decay", passed=True)
    _recorded(memory, "decay", passed=False)  # a newer failure wins over the older pass
    with pytest.raises(ValidationError, match="not the latest evaluation"):
        activate_job(db, s, "decay", older_pass)
    assert not is_active(db, s, "decay")

    row = activate_job(db, s, "decay", _recorded(memory, "decay", True), actor="ana")
    assert row["active"] and row["evaluation"]["passed"] and not row["forced"]
    assert is_active(db, s, "decay")

    # one at a time: a second job waits MIN_GAP_DAYS unless forced
    reflection_eval = _recorded(memory, "reflection", passed=True)
    with pytest.raises(ValidationError) as err:
        activate_job(db, s, "reflection", reflection_eval, actor="ana")
    assert err.value.field == "force" and "decay was activated" in str(err.value)
    forced = activate_job(db, s, "reflection", reflection_eval, actor="ana", force=True)
    assert forced["forced"] and is_active(db, s, "reflection")
    deactivate_job(db, s, "reflection", actor="ana")
    status = {r["job"]: r for r in job_status(db, s)}
    assert status["decay"]["active"] and not status["reflection"]["active"]
    assert status["evolution"]["latest_evaluation"] is None
    with memory.db.connection() as conn:
        kinds = conn.execute(
            "SELECT kind, payload->>'job' AS job FROM events WHERE store_id = %s"
            " AND item_id IS NULL ORDER BY event_id",
            (s,),
        ).fetchall()
    assert [(k["kind"], k["job"]) for k in kinds] == [
        ("activate", "decay"),
        ("activate", "reflection"),
        ("deactivate", "reflection"),
    ]


def _scores(recall: Recall, query: str) -> dict[int, float]:
    return {h.id: h.score for h in recall.search(query, ["agent"], k=5)}


def test_salience_is_ignored_while_decay_is_inactive(memory: Memory, recall: Recall) -> None:
    a = memory.save({"category": "fact", "context": "The staging database runs Postgres 16"}).id
    b = memory.save({"category": "fact", "context": "The staging cluster has three nodes"}).id
    base = _scores(recall, "staging database")
    with memory.db.connection() as conn:  # recorded by a decay run, not yet consumed
        conn.execute(
            "INSERT INTO item_scores (item_id, store_id, salience, base, idle_since, idle_days,"
            " computed_at) SELECT item_id, store_id, 1.0, 1.0, now(), 0, now()"
            " FROM agent_memory_items WHERE item_id = %s",
            (a,),
        )
    assert _scores(recall, "staging database") == pytest.approx(base)
    with memory.db.transaction() as conn:
        jobs_db.set_activation(
            conn, memory.store_id, "decay", active=True, actor="t", evaluation={"passed": True}
        )
    boosted = _scores(recall, "staging database")
    assert boosted[a] == pytest.approx(base[a] + SALIENCE_WEIGHT * KIND_WEIGHTS["item"])
    assert boosted[b] == pytest.approx(base[b])
    deactivate_job(memory.db, memory.store_id, "decay")
    assert _scores(recall, "staging database") == pytest.approx(base)


def test_insights_reach_recall_only_once_reflection_is_active(
    memory: Memory, recall: Recall
) -> None:
    for text in (
        "Ana prefers morning meetings before 10am",
        "Ana does not want meetings on Fridays",
        "Ana asked to keep standups short, under 15 minutes",
    ):
        memory.save({"category": "fact", "context": text, "confidence": 8})
    assert (
        reflect(memory.db, memory.store_id, memory.models, memory.embedder)["insights_created"] == 1
    )
    [insight] = memory.items(category="insight")

    def found() -> bool:
        hits = Recall(memory.store_id, db=memory.db, embedder=memory.embedder).search(
            "Ana meetings", ["agent"], k=10
        )
        return insight.item_id in {h.id for h in hits}

    assert not found()
    with memory.db.transaction() as conn:
        jobs_db.set_activation(
            conn, memory.store_id, "reflection", active=True, actor="t", evaluation={"passed": 1}
        )
    assert found()


def test_evaluation_measures_without_and_with_the_job_and_changes_nothing(
    memory: Memory,
) -> None:
    lines = [
        "We moved the weekly planning meeting to Tuesday mornings.",
        "The new office in Porto opens in September next year.",
        "Our CI pipeline takes about twelve minutes on the main branch.",
        "Rui is the on-call engineer for the payments service this week.",
        "The customer in Lyon asked for invoices in euros only.",
        "Ana booked the team dinner at the Italian place near the station.",
    ]
    memory.write_turns("c1", [{"text": t, "speaker": "Ana"} for t in lines])
    for t in ("Planning meetings happen on Tuesday mornings", "The Porto office opens in Sept"):
        memory.save({"category": "fact", "context": t, "confidence": 7})
    before = memory.items()
    row = evaluate_job(memory.db, memory.store_id, "decay", memory.embedder)
    assert row["metric"] == "self_recall@10" and row["detail"]["probes"] == len(lines)
    assert 0 <= row["baseline"] <= 1 and 0 <= row["with_job"] <= 1
    assert row["passed"] == (row["with_job"] >= row["baseline"] - 0.02)
    assert len(lines) >= MIN_PROBES and row["detail"]["job_changes"]["scored"] == 2
    with memory.db.connection() as conn:
        scores = conn.execute(
            "SELECT count(*) AS n FROM item_scores WHERE store_id = %s", (memory.store_id,)
        ).fetchone()
    assert scores is not None and scores["n"] == 0  # the what-if was rolled back
    assert memory.items() == before

    runner = CliRunner()
    out = runner.invoke(main, ["jobs", "status", "--store", memory.store_id])
    assert out.exit_code == 0 and f"evaluation {row['evaluation_id']}:" in out.output
    for args in (["jobs", "--help"], ["jobs", "activate", "--help"], ["feed", "--help"]):
        assert runner.invoke(main, args).exit_code == 0
