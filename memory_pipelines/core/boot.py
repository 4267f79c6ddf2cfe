"""The boot window: a chat's whole history within a token budget, at decreasing resolution.

Start from the fewest records that span the chat (core.pyramid.cover: the highest chunks, then
lower ones, then the raw turns no chunk covers yet), then spend what the budget leaves on
detail, newest first: the newest chunk in the window is replaced by its ten children while they
fit. So the newest turns are raw, older ones level-1 summaries, older still level 2 and up, and
resolution never rises going back in time. No SQL: the caller prices records in tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_pipelines.core.pyramid import children

Unit = tuple[int, int]  # (level, seq); level 0 is a raw turn
Cost = Callable[[Sequence[Unit]], Sequence[int]]
BLOCK = 64  # records priced per call while walking back from the newest
# An agent's boot window when it does not say its budget (auto-recall skips what it holds).
DEFAULT_BUDGET = 2000


@dataclass(frozen=True)
class Fit:
    units: list[Unit]  # oldest first
    tokens: int
    complete: bool  # every turn of the chat is represented
    dropped: int  # records of the cover left out, oldest first, when even it did not fit


def fit(cover: Sequence[Unit], cost: Cost, budget: int) -> Fit:
    """The records to show for a chat whose minimal cover is `cover`, within `budget` tokens.

    `cost(units)` gives each record's tokens as rendered; it is asked about a unit once.
    """
    known: dict[Unit, int] = {}

    def price(units: Sequence[Unit]) -> list[int]:
        todo = [u for u in units if u not in known]
        if todo:
            known.update(zip(todo, cost(todo), strict=True))
        return [known[u] for u in units]

    # The cover itself, newest first: if it does not fit, the oldest history is what goes.
    kept: list[Unit] = []
    total = 0
    end = len(cover)
    while end > 0:
        block = cover[max(0, end - BLOCK) : end]
        for unit, c in zip(reversed(block), reversed(price(block)), strict=True):
            if total + c > budget:
                return Fit(kept[::-1], total, False, len(cover) - len(kept))
            kept.append(unit)
            total += c
        end -= len(block)
    window = kept[::-1]
    # Detail, newest first: expanding an older chunk first would leave a coarse record after a
    # finer one, and the newest history is what an agent needs at full resolution.
    while True:
        at = next((i for i in range(len(window) - 1, -1, -1) if window[i][0] > 0), None)
        if at is None:
            break
        kids = children(*window[at])
        delta = sum(price(kids)) - price([window[at]])[0]
        if total + delta > budget:
            break
        window[at : at + 1] = kids
        total += delta
    return Fit(window, total, True, 0)


def day(dt: datetime) -> str:
    """`8 May 2023`: the date as the summaries write it, and fewer word pieces than ISO."""
    return f"{dt.day} {dt:%b %Y}"


def period(start: datetime, end: datetime) -> str:
    """`8 May 2023`, `25-28 Aug 2023`, `8 May-6 Jul 2023` or `28 Dec 2022-3 Jan 2023`."""
    if start.date() == end.date():
        return day(start)
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}-{day(end)}"
    if start.year == end.year:
        return f"{start.day} {start:%b}-{day(end)}"
    return f"{day(start)}-{day(end)}"


def turn_frame(seq: int, speaker: str, at: datetime | None) -> str:
    """`[turn 57 Caroline, 8 May 2023]`, or `[turn 58 Melanie]` when the date is known already."""
    who = f" {speaker}" if speaker else ""
    return f"[turn {seq}{who}{f', {day(at)}' if at else ''}]"


def chunk_frame(level: int, from_seq: int, to_seq: int, start: datetime, end: datetime) -> str:
    """`[L1 turns 41-50, 8 May 2023]`: level, the turns it covers and its period."""
    return f"[L{level} turns {from_seq}-{to_seq}, {period(start, end)}]"
