"""The LoCoMo evaluation's scoring on a tiny hand-made case with known answers."""

from __future__ import annotations

from memory_pipelines.evals.locomo_scoring import aggregate, evidence_ids, score_question


def test_evidence_ids_are_split_repaired_and_filtered() -> None:
    known = {"D8:6", "D9:17", "D11:26", "D30:5", "D1:1"}
    assert evidence_ids(["D8:6; D9:17"], known) == ["D8:6", "D9:17"]
    assert evidence_ids(["D:11:26", "D30:05"], known) == ["D11:26", "D30:5"]
    assert evidence_ids(["D10:19", "D", "D1:1"], known) == ["D1:1"]


def test_scores_of_a_known_ranking() -> None:
    ranked = ["D1:1", "D1:2", "D1:3", "D1:4", "D1:5", "D1:6"] + [f"D2:{i}" for i in range(1, 60)]
    s = score_question(ranked, ["D1:3", "D2:7"])
    assert s["recall@5"] == 0.5 and s["recall@10"] == 0.5  # D2:7 sits at rank 13
    assert s["recall@20"] == 1.0 and s["recall@50"] == 1.0
    assert s["all@10"] == 0.0 and s["mrr"] == 1 / 3
    miss = score_question(ranked, ["D9:9"])
    assert miss["mrr"] == 0.0 and miss["recall@50"] == 0.0
    agg = aggregate([s, miss])
    assert agg["n"] == 2 and agg["recall@20"] == 0.5 and agg["mrr"] == round(1 / 6, 4)
    assert s["session_recall@10"] == 1.0 and miss["session_recall@10"] == 0.0
    assert agg["session_recall@10"] == 0.5


def test_session_recall_counts_a_turn_of_an_evidence_session() -> None:
    # No evidence turn in the top 10, but D2:8 is in session D2, which holds evidence D2:7.
    ranked = [f"D1:{i}" for i in range(1, 10)] + ["D2:8", "D2:7"]
    s = score_question(ranked, ["D2:7", "D5:1"])
    assert s["recall@10"] == 0.0 and s["session_recall@10"] == 1.0
    # D12:1 is not in session D1 (the session is the part before the colon, not a prefix).
    assert score_question(["D12:1"], ["D1:1"])["session_recall@10"] == 0.0
