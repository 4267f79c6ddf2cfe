"""Pyramid arithmetic: which chunks a chat's history calls for, and whether stored ones agree.

Level 1 covers a complete batch of BRANCH turns, level n a complete batch of BRANCH chunks of
level n-1. Chunks of each level are numbered densely from 1, so a chat's pyramid is described by
its turn count and its chunk count per level; everything else follows. No SQL, no models.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

BRANCH = 10
# 10**9 turns per chat before a tenth level would be needed; the store queries probe this many.
MAX_LEVEL = 9


@dataclass(frozen=True, order=True)
class Planned:
    """A chunk to build: its level and seq, and the seqs of its children one level down
    (turn seqs for level 1)."""

    level: int
    seq: int

    @property
    def first_child(self) -> int:
        return (self.seq - 1) * BRANCH + 1

    @property
    def last_child(self) -> int:
        return self.seq * BRANCH


def span(level: int, seq: int) -> tuple[int, int]:
    """The turn seqs (first, last) covered by chunk `seq` of `level` (level 0: one turn)."""
    size = BRANCH**level
    return (seq - 1) * size + 1, seq * size


def shape(turns: int) -> dict[int, int]:
    """Chunks per level of a complete pyramid over `turns` turns: {1: turns // 10, ...}."""
    out: dict[int, int] = {}
    units, level = turns, 1
    while units >= BRANCH and level <= MAX_LEVEL:
        units //= BRANCH
        out[level] = units
        level += 1
    return out


def new_chunks(turns: int, built: Mapping[int, int]) -> list[Planned]:
    """The chunks still to build, level by level and in seq order, given the turn count and
    the chunks already built per level. Incomplete batches wait; nothing built is planned again.
    A level counts what exists below it, so it never needs the turns once its children exist.
    """
    plan: list[Planned] = []
    units = turns  # units one level down: turns, then chunks built or planned
    for level in range(1, MAX_LEVEL + 1):
        want, have = units // BRANCH, built.get(level, 0)
        plan.extend(Planned(level, seq) for seq in range(have + 1, want + 1))
        units = max(want, have)
        if units < BRANCH:
            break
    return plan


def cover(turns: int, built: Mapping[int, int]) -> list[tuple[int, int]]:
    """The fewest records spanning a whole chat, oldest first, as (level, seq); level 0 is a raw
    turn. Highest levels first, then each lower level for what its parent level leaves, then
    the raw turns no chunk covers yet."""
    out: list[tuple[int, int]] = []
    done = 0  # turns covered so far
    for level in sorted((lv for lv, n in built.items() if n > 0), reverse=True):
        size = BRANCH**level
        first = done // size + 1  # `done` is a multiple of every higher level's size
        out.extend((level, seq) for seq in range(first, built[level] + 1))
        done = max(done, built[level] * size)
    out.extend((0, seq) for seq in range(done + 1, turns + 1))
    return out


def children(level: int, seq: int) -> list[tuple[int, int]]:
    """The (level, seq) records one level down that chunk `seq` of `level` stands for."""
    if level < 1:
        raise ValueError(f"level must be >= 1 to have children, got {level}")
    first = (seq - 1) * BRANCH + 1
    return [(level - 1, s) for s in range(first, first + BRANCH)]


@dataclass(frozen=True)
class StoredChunk:
    """What the contiguity check needs of one stored chunk. `covered` is what the store holds in
    [from_seq, to_seq] one level down (turn ids for level 1, chunk ids above), in order."""

    chat_id: int
    level: int
    seq: int
    from_seq: int
    to_seq: int
    units_covered: int
    children: Sequence[int]
    covered: Sequence[int]


def contiguity_problems(chunks: Iterable[StoredChunk]) -> list[str]:
    """Every way the stored pyramid breaks its invariants, one message each (empty: sound).

    Same-level chunks of a chat are numbered 1, 2, ... without holes, each starts right after
    the previous one ends (the first at turn 1), so they neither leave gaps nor overlap; and each
    chunk's children are exactly the units it covers, BRANCH of them.
    """
    problems: list[str] = []
    prev: dict[tuple[int, int], StoredChunk] = {}
    for c in sorted(chunks, key=lambda c: (c.chat_id, c.level, c.seq)):
        where = f"chat {c.chat_id} L{c.level} seq {c.seq}"
        before = prev.get((c.chat_id, c.level))
        want_seq = before.seq + 1 if before else 1
        want_from = before.to_seq + 1 if before else 1
        if c.seq != want_seq:
            problems.append(f"{where}: expected seq {want_seq} (chunks are numbered densely)")
        if c.from_seq != want_from:
            kind = "gap" if c.from_seq > want_from else "overlap"
            problems.append(f"{where}: from_seq {c.from_seq}, expected {want_from} ({kind})")
        if list(c.children) != list(c.covered):
            problems.append(
                f"{where}: children {list(c.children)} are not the covered units "
                f"{list(c.covered)} of turns {c.from_seq}-{c.to_seq}"
            )
        if not c.units_covered == len(c.children) == BRANCH:
            problems.append(
                f"{where}: units_covered {c.units_covered} with {len(c.children)} children, "
                f"expected {BRANCH}"
            )
        prev[(c.chat_id, c.level)] = c
    return problems
