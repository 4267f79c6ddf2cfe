"""Ranking rules on candidates (no database): one score for every kind of record."""

from __future__ import annotations

import pytest

from memory_pipelines.core import ranking
from memory_pipelines.core.ranking import Candidate, score


def test_a_turn_by_a_person_of_the_question_gets_the_speaker_bonus() -> None:
    by_other = Candidate("turn", 1, lexical=0.5, cos=0.4, named=0)
    by_named = Candidate("turn", 2, lexical=0.5, cos=0.4, named=1)
    assert score(by_named) == pytest.approx(score(by_other) + ranking.SPEAKER_BONUS)
    # items keep the graph bonus per entity named, up to two
    item = Candidate("item", 3, lexical=0.5, cos=0.4, named=0)
    item3 = Candidate("item", 4, lexical=0.5, cos=0.4, named=3)
    weight = ranking.KIND_WEIGHTS["item"]
    assert score(item3) == pytest.approx(score(item) + 2 * ranking.GRAPH_BONUS * weight)


def test_a_record_that_asks_ranks_below_one_that_tells() -> None:
    tells = Candidate("turn", 1, lexical=0.8, cos=0.5)
    asks = Candidate("turn", 2, lexical=0.8, cos=0.5, asks=True)
    assert score(asks) == pytest.approx(score(tells) - ranking.QUESTION_PENALTY)
    item_tells = Candidate("item", 3, lexical=0.8, cos=0.5)
    item_asks = Candidate("item", 4, lexical=0.8, cos=0.5, asks=True)
    weight = ranking.KIND_WEIGHTS["item"]
    assert score(item_asks) == pytest.approx(score(item_tells) - ranking.QUESTION_PENALTY * weight)


def test_a_turn_is_read_with_its_neighbours() -> None:
    alone = Candidate("turn", 1, lexical=0.0, cos=0.3)
    answering = Candidate("turn", 2, lexical=0.0, cos=0.3, context=0.9)
    gain = ranking.ALPHA * ranking.CONTEXT_WEIGHT * 0.9
    assert score(answering) == pytest.approx(score(alone) + gain)
    ranked = ranking.rank([alone, answering])
    assert [c.id for c, _ in ranked] == [2, 1]


def test_a_reply_gains_part_of_the_match_of_the_turn_asking_it() -> None:
    """Of two turns alike in meaning, the one after a matching turn that asks ranks first,
    though the other shares more words, by ANSWER_SUPPORT of the asking turn's match. The
    turn after a telling turn, a turn before the asking one, a reply in another chat and a
    reply that asks in turn gain nothing."""
    asking = Candidate("turn", 1, 0.9, 0.6, asks=True, span=(7, 14, 14))
    reply = Candidate("turn", 2, 0.3, 0.2, span=(7, 15, 15))
    other = Candidate("turn", 3, 0.4, 0.2, span=(7, 30, 30))
    ranked = ranking.rank([other, reply, asking])
    scores = dict((c.key, s) for c, s in ranked)
    support = ranking.ANSWER_SUPPORT * (0.9 + ranking.ALPHA * 0.6)
    assert scores[reply.key] == pytest.approx(score(reply) + support)
    assert scores[other.key] == pytest.approx(score(other))
    assert [c.id for c, _ in ranked].index(2) < [c.id for c, _ in ranked].index(3)
    for lender, borrower in (
        (Candidate("turn", 1, 0.9, 0.6, span=(7, 14, 14)), reply),  # it tells
        (Candidate("turn", 1, 0.9, 0.6, asks=True, span=(7, 16, 16)), reply),  # after it
        (Candidate("turn", 1, 0.9, 0.6, asks=True, span=(8, 14, 14)), reply),  # another chat
        (asking, Candidate("turn", 2, 0.3, 0.2, asks=True, span=(7, 15, 15))),  # asks back
    ):
        alone = dict((c.key, s) for c, s in ranking.rank([lender, borrower]))
        assert alone[borrower.key] == pytest.approx(score(borrower))


def test_a_turn_inside_a_matching_summary_gains_part_of_its_match() -> None:
    """Two turns alike in words and meaning: the one whose ten-turn stretch is summarised by
    a matching level-1 chunk ranks first; a chunk of another chat, or of a higher level, or
    not covering the turn, lends nothing."""
    inside = Candidate("turn", 1, 0.5, 0.4, span=(7, 15, 15))
    outside = Candidate("turn", 2, 0.5, 0.4, span=(7, 25, 25))
    chunk = Candidate("chunk", 9, 0.8, 0.5, span=(7, 11, 20), level=1)
    ranked = dict((c.key, s) for c, s in ranking.rank([outside, inside, chunk]))
    support = ranking.CHUNK_SUPPORT * (0.8 + ranking.ALPHA * 0.5)
    assert ranked[inside.key] == pytest.approx(score(inside) + support)
    assert ranked[outside.key] == pytest.approx(score(outside))
    for other in (
        Candidate("chunk", 9, 0.8, 0.5, span=(8, 11, 20), level=1),  # another chat
        Candidate("chunk", 9, 0.8, 0.5, span=(7, 1, 100), level=2),  # a summary of summaries
    ):
        alone = dict((c.key, s) for c, s in ranking.rank([inside, other]))
        assert alone[inside.key] == pytest.approx(score(inside))
