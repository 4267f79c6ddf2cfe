"""The boot window: all history within a token budget, resolution falling with age."""

from __future__ import annotations

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core import pyramid
from memory_pipelines.core.boot import chunk_frame, fit, period, turn_frame
from memory_pipelines.errors import NotFound, ValidationError
from tests.pyramid_helpers import T0, roll, write


def _costs(units):
    return [10 * (1 + level) for level, _ in units]  # a chunk costs more than a turn


def _turns_covered(units) -> list[int]:
    out: list[int] = []
    for level, seq in units:
        first, last = pyramid.span(level, seq)
        out.extend(range(first, last + 1))
    return out


def test_fit_refines_newest_first_and_never_raises_resolution_going_back() -> None:
    cover = pyramid.cover(255, {1: 25, 2: 2})
    assert cover == [
        (2, 1),
        (2, 2),
        *[(1, s) for s in range(21, 26)],
        *[(0, s) for s in range(251, 256)],
    ]
    minimal = sum(_costs(cover))
    for budget in (minimal, minimal + 100, minimal + 300, 10_000):
        got = fit(cover, _costs, budget)
        assert got.complete and got.tokens == sum(_costs(got.units)) <= budget
        assert _turns_covered(got.units) == list(range(1, 256))  # all of it, once, in order
        levels = [level for level, _ in got.units]
        assert levels == sorted(levels, reverse=True)
    assert fit(cover, _costs, 10_000).units == [(0, s) for s in range(1, 256)]
    mid = fit(cover, _costs, minimal + 300).units
    assert {level for level, _ in mid} == {0, 1, 2} and mid[-15:] == [
        (0, s) for s in range(241, 256)
    ]


def test_fit_keeps_the_newest_records_when_even_the_cover_does_not_fit() -> None:
    cover = pyramid.cover(255, {1: 25, 2: 2})
    got = fit(cover, _costs, 75)
    assert not got.complete and got.units == [(1, 25), *[(0, s) for s in range(251, 256)]]
    assert got.dropped == len(cover) - len(got.units) and got.tokens <= 75


def test_frames_are_short_and_dated() -> None:
    later = T0.replace(day=28, month=8)
    assert turn_frame(57, "Caroline", T0) == "[turn 57 Caroline, 8 May 2023]"
    assert turn_frame(58, "Melanie", None) == "[turn 58 Melanie]"
    assert chunk_frame(1, 41, 50, T0, T0) == "[L1 turns 41-50, 8 May 2023]"
    assert chunk_frame(2, 1, 100, T0, later) == "[L2 turns 1-100, 8 May-28 Aug 2023]"
    assert period(T0, T0.replace(day=11)) == "8-11 May 2023"
    assert period(T0.replace(year=2022, month=12), T0) == "8 Dec 2022-8 May 2023"


def test_boot_window_over_a_rolled_up_chat(memory: Memory) -> None:
    write(memory, "c", 1, 255)
    roll(memory)
    full = memory.boot_window("c", 100_000)
    assert [r.kind for r in full.records] == ["turn"] * 255 and full.complete
    seen_levels = set()
    for budget in (900, 1500, 2500, 4000):
        w = memory.boot_window("c", budget)
        recs = w.records
        assert w.complete and w.tokens <= budget
        assert _turns_covered((r.level, r.seq) for r in recs) == list(range(1, 256))
        levels = [r.level for r in recs]
        assert levels == sorted(levels, reverse=True)  # newest raw, then L1, then L2
        assert recs[-1].kind == "turn" and recs[-1].seq == 255
        starts = [r.period_start for r in recs]
        assert starts == sorted(starts)
        # the token counts are the tokenizer's, and add up
        assert w.tokens == sum(memory.embedder.count_tokens(r.line) for r in recs)
        assert w.frame_tokens == sum(r.frame_tokens for r in recs)
        assert 0 < w.overhead == round(w.frame_tokens / w.tokens, 4) < 0.5
        assert w.text.splitlines() == [r.line for r in recs]
        seen_levels |= set(levels)
    assert seen_levels == {0, 1, 2}
    l2 = next(r for r in memory.boot_window("c", 900).records if r.level == 2)
    assert l2.line.startswith("[L2 turns 1-100, ") and l2.kind == "chunk"


def test_boot_window_before_any_rollup_and_with_a_tiny_budget(memory: Memory) -> None:
    write(memory, "c", 1, 12)
    w = memory.boot_window("c", 1000)
    assert [r.seq for r in w.records] == list(range(1, 13))  # raw turns, nothing rolled up
    assert w.records[0].line.startswith("[turn 1 Melanie, 8 May 2023] Melanie talked")
    tiny = memory.boot_window("c", 60)
    assert not tiny.complete and tiny.dropped > 0 and tiny.tokens <= 60
    assert tiny.records[-1].seq == 12  # the newest turns are what stays


def test_boot_window_validates(memory: Memory) -> None:
    write(memory, "c", 1, 3)
    with pytest.raises(ValidationError, match="budget_tokens: must be a positive integer"):
        memory.boot_window("c", 0)
    with pytest.raises(NotFound, match="chat 'nope' does not exist"):
        memory.boot_window("nope", 100)
