"""The maintenance pass's decisions: which records are one fact, which survives, which faded,
and which near pairs to show the contradiction judge. Pure: numpy arrays and polars frames in,
indices and frames out; no database, no Dagster.

Duplicates: records of one person (shared ones form their own group) and one category whose
embeddings have a cosine at or above the store's duplicate threshold. Similarity is transitive
here (A~B and B~C make one cluster, by union-find), so a cluster's outcome does not depend on
the order rows were read in; the strongest record of a cluster survives. Cosine alone cannot
tell a paraphrase from a negation or a changed value ("Ana is vegetarian" / "Ana is not
vegetarian" score 0.97 with MiniLM, "Standup is at 9:30" / "... 10:00" 0.95), so a pair the
contradiction rules set apart is never one fact: merging it would silently pick a winner.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import polars as pl

from memory_pipelines.core.contradiction import judge as contradiction_rules
from memory_pipelines.core.types import Edge, Item

BLOCK = 1024  # rows of the similarity matrix computed at once: memory is BLOCK x group size
# ... and at most this many similarities at once (64 MB of float32), so one group of 100k
# items computes blocks of 167 rows, not 1024 (400 MB).
BLOCK_CELLS = 16_000_000
_DAY_US = 86_400 * 1_000_000


@dataclass(frozen=True)
class Strength:
    """What decides which of two duplicates survives, strongest first: a user-stated record
    over a machine-proposed one, then higher confidence, more confirmations, the older one."""

    source: str
    confidence: int
    confirm_count: int
    created_at: datetime
    item_id: int

    def key(self) -> tuple[bool, int, int, float, int]:
        # Larger is stronger; the smaller id settles exact ties, so the choice is stable.
        return (
            self.source == "user",
            self.confidence,
            self.confirm_count,
            -self.created_at.timestamp(),
            -self.item_id,
        )


@dataclass(frozen=True)
class Cluster:
    """Records that state one fact: the survivor and the weaker ones it replaces, as row
    indices into the arrays given, with each weaker record's cosine to the survivor."""

    survivor: int
    weaker: tuple[int, ...]
    cosines: tuple[float, ...]


def normalised(vectors: np.ndarray) -> np.ndarray:
    """Unit rows (a zero row stays zero), so a dot product is the cosine."""
    v = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return np.divide(v, norms, out=np.zeros_like(v), where=norms > 0)


def groups_of(keys: Sequence[Hashable]) -> Iterator[np.ndarray]:
    """Row indices per distinct key (in order of first appearance), each ascending."""
    index: dict[Hashable, list[int]] = {}
    for i, k in enumerate(keys):
        index.setdefault(k, []).append(i)
    for rows in index.values():
        yield np.asarray(rows, dtype=np.int64)


def similar_pairs(
    vectors: np.ndarray, rows: np.ndarray, floor: float
) -> Iterator[tuple[int, int, float]]:
    """(i, j, cosine) for i < j among `rows` of unit `vectors` with cosine >= floor, computed
    in blocks so a large group never holds its whole matrix."""
    v = vectors[rows]
    block = max(1, min(BLOCK, BLOCK_CELLS // max(len(rows), 1)))
    for start in range(0, len(rows), block):
        sims = v[start : start + block] @ v.T
        r, c = np.nonzero(sims >= floor)
        keep = c > r + start  # upper triangle: each pair once, never a row with itself
        for a, b in zip(r[keep], c[keep], strict=True):
            yield int(rows[a + start]), int(rows[b]), float(sims[a, b])


def _find(parent: dict[int, int], i: int) -> int:
    root = i
    while parent.get(root, root) != root:
        root = parent[root]
    while parent.get(i, i) != root:  # path compression
        parent[i], i = root, parent[i]
    return root


def duplicate_clusters(
    vectors: np.ndarray,
    groups: Sequence[Hashable],
    strengths: Sequence[Strength],
    threshold: float,
    texts: Sequence[str] | None = None,
    same_fact: Callable[[int, int], bool] | None = None,
) -> list[Cluster]:
    """Clusters of duplicates. `groups[i]` is row i's (person, category): only rows of one
    group are compared. With `texts`, a pair that core.contradiction's rules call a
    contradiction is kept apart, and so is a weaker record that contradicts its cluster's
    survivor; with `same_fact(i, j)` (the dedup judge's verdict), so is a pair it does not
    call one fact ("Ana's sister lives in Kyoto" / "Ana's brother lives in Kyoto", cosine
    0.95): the threshold only chooses which pairs are asked. Clusters are ordered by their
    survivor's row; weaker rows ascend."""

    verdicts: dict[tuple[int, int], bool] = {}  # a survivor's pair is often asked twice

    def apart(i: int, j: int) -> bool:
        if texts is None and same_fact is None:
            return False
        key = (min(i, j), max(i, j))
        if key not in verdicts:
            verdicts[key] = (
                texts is not None and contradiction_rules(texts[key[0]], texts[key[1]]).contradicts
            ) or (same_fact is not None and not same_fact(*key))
        return verdicts[key]

    unit = normalised(vectors)
    parent: dict[int, int] = {}
    for rows in groups_of(groups):
        for i, j, _ in similar_pairs(unit, rows, threshold):
            if apart(i, j):
                continue
            ri, rj = _find(parent, i), _find(parent, j)
            parent.setdefault(ri, ri)
            parent.setdefault(rj, rj)
            if ri != rj:
                parent[max(ri, rj)] = min(ri, rj)
    members: dict[int, list[int]] = {}
    for i in sorted(parent):
        members.setdefault(_find(parent, i), []).append(i)
    out = []
    for rows_ in members.values():
        survivor = max(rows_, key=lambda r: strengths[r].key())
        weaker = tuple(r for r in rows_ if r != survivor and not apart(r, survivor))
        if not weaker:
            continue
        cosines = tuple(float(unit[w] @ unit[survivor]) for w in weaker)
        out.append(Cluster(survivor, weaker, cosines))
    return sorted(out, key=lambda c: c.survivor)


def union_fields(survivor: Item, weaker: Sequence[Item]) -> dict[str, Any]:
    """The survivor's tags, entities, keywords and edges with the weaker records' added (the
    survivor's own first, then each weaker's in the order given). An edge of a weaker record
    that points at the survivor itself is dropped: a record does not link to itself."""
    out: dict[str, Any] = {}
    for name in ("tags", "entities", "keywords", "edges"):
        merged = list(getattr(survivor, name))
        for w in weaker:
            for v in getattr(w, name):
                self_edge = (
                    isinstance(v, Edge) and v.kind == "item" and v.target == survivor.item_id
                )
                if v not in merged and not self_edge:
                    merged.append(v)
        out[name] = merged
    return out


def faded(
    items: pl.DataFrame, archive_below: float, idle_days: float, now: datetime
) -> pl.DataFrame:
    """Current records to archive: salience under `archive_below` and idle (not recalled or
    confirmed; else since created) for at least `idle_days`. Columns in: item_id, salience,
    scored_at, last_recalled_at, last_confirmed_at, created_at. A record without a score is
    skipped, and so is one used after its score was computed: the score no longer describes
    it. Returns item_id, salience, idle_days of the records to archive."""
    if items.is_empty():
        return pl.DataFrame(
            schema={"item_id": pl.Int64, "salience": pl.Float64, "idle_days": pl.Float64}
        )
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    idle_since = pl.coalesce(
        pl.max_horizontal("last_recalled_at", "last_confirmed_at"), "created_at"
    )
    return (
        items.with_columns(
            idle_since=idle_since,
            idle_days=(pl.lit(now) - idle_since).dt.total_microseconds() / _DAY_US,
        )
        .filter(
            pl.col("salience").is_not_null()
            & (pl.col("salience") < archive_below)
            & (pl.col("idle_days") >= idle_days)
            & (pl.col("scored_at") >= pl.col("idle_since"))
        )
        .select("item_id", pl.col("salience").cast(pl.Float64), "idle_days")
        .sort("item_id")
    )


def near_pairs(
    vectors: np.ndarray, groups: Sequence[Hashable], floor: float, per_item: int
) -> list[tuple[int, int, float]]:
    """Pairs (i < j, cosine) of one group with cosine >= floor, keeping for each row only its
    `per_item` nearest: a bound on contradiction judgements, each of them a metered call.
    Most similar first."""
    unit = normalised(vectors)
    best: dict[int, list[tuple[float, int]]] = {}
    for rows in groups_of(groups):
        for i, j, cos in similar_pairs(unit, rows, floor):
            best.setdefault(i, []).append((cos, j))
            best.setdefault(j, []).append((cos, i))
    pairs: dict[tuple[int, int], float] = {}
    for i, near in best.items():
        for cos, j in sorted(near, key=lambda t: (-t[0], t[1]))[:per_item]:
            pairs[(min(i, j), max(i, j))] = cos
    return sorted(((i, j, c) for (i, j), c in pairs.items()), key=lambda t: (-t[2], t[0], t[1]))
