"""Pyramid arithmetic, the contiguity rules and the extractive summariser, without Postgres."""

from __future__ import annotations

import numpy as np
import pytest

from memory_pipelines.core import pyramid
from memory_pipelines.core.pyramid import Planned, StoredChunk, contiguity_problems
from memory_pipelines.core.summarise import parse, summarise, turn_text
from memory_pipelines.models.embedder import Embedder
from tests.pyramid_helpers import T0

SHAPES = {
    0: {},
    9: {},
    10: {1: 1},
    99: {1: 9},
    100: {1: 10, 2: 1},
    101: {1: 10, 2: 1},
    1000: {1: 100, 2: 10, 3: 1},
}


@pytest.mark.parametrize("turns", sorted(SHAPES))
def test_shape_and_plan_from_nothing(turns: int) -> None:
    assert pyramid.shape(turns) == SHAPES[turns]
    plan = pyramid.new_chunks(turns, {})
    assert len(plan) == sum(SHAPES[turns].values())
    assert plan == sorted(plan)  # level by level, seq order: a level reads the one below
    for level, n in SHAPES[turns].items():
        assert [p.seq for p in plan if p.level == level] == list(range(1, n + 1))


def test_plan_is_incremental_and_incomplete_batches_wait() -> None:
    assert pyramid.new_chunks(109, {1: 10, 2: 1}) == []
    assert pyramid.new_chunks(110, {1: 10, 2: 1}) == [Planned(1, 11)]
    assert pyramid.new_chunks(1000, {1: 99, 2: 9}) == [
        Planned(1, 100),
        Planned(2, 10),
        Planned(3, 1),
    ]
    assert pyramid.new_chunks(0, {1: 10}) == [Planned(2, 1)]  # from the children alone
    assert Planned(2, 3).first_child == 21 and Planned(2, 3).last_child == 30
    assert pyramid.span(2, 3) == (201, 300) and pyramid.span(0, 7) == (7, 7)


def test_cover_spans_history_once_coarsest_first() -> None:
    cover = pyramid.cover(419, {1: 41, 2: 4})
    assert cover == [(2, 1), (2, 2), (2, 3), (2, 4), (1, 41), *[(0, s) for s in range(411, 420)]]
    # a rollup that lags leaves more raw turns, never a hole
    assert pyramid.cover(35, {1: 2}) == [(1, 1), (1, 2), *[(0, s) for s in range(21, 36)]]
    assert pyramid.cover(0, {}) == []
    assert pyramid.children(2, 1) == [(1, s) for s in range(1, 11)]
    with pytest.raises(ValueError, match="level must be >= 1"):
        pyramid.children(0, 5)


def _l1(seq: int, **kw) -> StoredChunk:
    first = (seq - 1) * 10 + 1
    ids = list(range(first, first + 10))
    base = dict(chat_id=1, level=1, seq=seq, from_seq=first, to_seq=first + 9)
    return StoredChunk(**{**base, "units_covered": 10, "children": ids, "covered": ids, **kw})


def test_contiguity_rules_catch_gaps_overlaps_and_wrong_children() -> None:
    good = [_l1(1), _l1(2), _l1(3)]
    assert contiguity_problems(good) == []
    gap = contiguity_problems([_l1(1), _l1(3)])
    assert any("expected seq 2" in p for p in gap) and any("(gap)" in p for p in gap)
    overlap = contiguity_problems([_l1(1), _l1(2, from_seq=8)])
    assert any("(overlap)" in p for p in overlap)
    late_start = contiguity_problems([_l1(1, from_seq=2)])
    assert any("from_seq 2, expected 1" in p for p in late_start)
    wrong = contiguity_problems([_l1(1, covered=list(range(1, 10)))])  # a turn went missing
    assert any("not the covered units" in p for p in wrong)
    short = contiguity_problems([_l1(1, units_covered=9)])
    assert any("units_covered 9" in p for p in short)


TURNS = [
    ("Caroline", "Hey Mel! Good to see you! How have you been?"),
    ("Melanie", "Hey Caroline! I'm swamped with the kids & work. What's up with you?"),
    ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."),
    ("Melanie", "Wow, that's cool, Caroline! What happened that was so awesome?"),
    ("Caroline", "The transgender stories were so inspiring! I was so happy and thankful."),
    ("Melanie", "So cool you found such a helpful group. What's it done for you?"),
    ("Caroline", "The support group has made me feel accepted and given me courage."),
    ("Melanie", "That's really cool. You've got guts. What now?"),
    ("Caroline", "I'm starting a counseling course in Boston on 12 June, three days a week."),
    ("Melanie", "Wow, Caroline! What kinda jobs are you thinkin' of?"),
]


def test_extractive_summary_is_short_central_and_keeps_names_and_dates(
    embedder: Embedder,
) -> None:
    texts = [turn_text(who, "user", T0, text) for who, text in TURNS]
    assert texts[2].startswith("Caroline (8 May 2023): ") and "(7 May 2023)" in texts[2]
    out = summarise(texts, embedder.embed([t for _, t in TURNS]), max_words=40)
    words = out.split()
    assert len(words) <= 40 < sum(len(t.split()) for t in texts) / 3
    assert "Caroline (8 May 2023):" in out  # who and when survive
    assert "support group" in out and "12 June" in out  # the concrete, central sentences
    assert "Good to see you" not in out and "What now?" not in out  # chatter is passed over
    # sentences keep their original order
    assert out.index("support group") < out.index("12 June")


def test_summary_of_summaries_keeps_headers_and_budget() -> None:
    texts = [
        "Caroline (8 May 2023): I went to a support group in Boston. Melanie: I ran a 5k race.",
        "Caroline (9 June 2023): My school event on 2 June went well. Melanie: Pottery is fun.",
    ]
    vecs = np.eye(2, 384, dtype=np.float32)
    out = summarise(texts, vecs, max_words=25)
    assert len(out.split()) <= 25 and out.startswith(("Caroline (8 May 2023):", "Caroline (9 "))
    assert summarise(["Melanie: " + "word " * 50], vecs[:1], max_words=5).endswith("…")
    lower = [turn_text("ana", "user", T0, "We picked sqlite. It is simpler."), "user: Fine."]
    assert parse(lower)[1].who == "ana" and parse(lower)[1].when == "8 May 2023"
    assert parse(lower)[2].who == "user" and parse(lower)[2].body == "Fine."
    with pytest.raises(ValueError, match="vectors: one per text"):
        summarise(texts, vecs[:1])
    with pytest.raises(ValueError, match="texts: at least one"):
        summarise([], vecs[:0])
