"""An in-memory copy of a store's item vectors, for dedup over many candidates in one run.

Scanning every item of a store in SQL for each candidate costs time proportional to the store;
an extraction run saves thousands of candidates. The pool holds each current item's vector and
person once, answers the nearest ones with one matrix product, and is kept up to date by its
owner: the run's own writes as they happen, other writers' from the change feed (api/dedup_near.py).

Memory: a float32 row per item (1.5 KB at 384 dimensions: 150 MB for 100k items), plus at most a
quarter more of room to grow into; a lookup allocates one float per item (its similarity), never
a copy of the matrix.
"""

from __future__ import annotations

import numpy as np

SHARED = 0  # the person code of shared items (person_id NULL)


class VectorPool:
    """Vectors by item id, with the person each item belongs to (shared when None)."""

    def __init__(self, dim: int, capacity: int = 256) -> None:
        """`capacity`: rows to allocate up front (e.g. the store's item count), so loading a
        large store does not grow the matrix step by step."""
        size = max(int(capacity), 16)
        self._mat = np.zeros((size, dim), dtype=np.float32)
        self._ids = np.zeros(size, dtype=np.int64)
        self._persons = np.zeros(size, dtype=np.int32)  # codes: SHARED or _codes[person]
        self._codes: dict[str, int] = {}
        self._live = np.zeros(size, dtype=bool)
        self._row: dict[int, int] = {}
        self._n = 0

    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, item_id: int) -> bool:
        return item_id in self._row

    def put(self, item_id: int, person: str | None, vec: np.ndarray) -> None:
        """Add an item, or replace its vector and person."""
        row = self._row.get(item_id)
        if row is None:
            if self._n == len(self._ids):
                self._grow()
            row = self._n
            self._n += 1
            self._row[item_id] = row
            self._ids[row] = item_id
        self._mat[row] = np.asarray(vec, dtype=np.float32)
        self._persons[row] = self._code(person)
        self._live[row] = True

    def drop(self, item_id: int) -> None:
        """Forget an item (superseded, deleted, moved out of reach)."""
        row = self._row.pop(item_id, None)
        if row is not None:
            self._live[row] = False

    def nearest(self, person: str | None, vec: np.ndarray, k: int) -> list[int]:
        """Ids of the k items closest to vec among the person's own (the shared ones for a
        shared candidate), closest first."""
        n = self._n
        if n == 0 or k <= 0:
            return []
        # Only the person's own items (shared ones for a shared candidate): dedup never judges
        # across persons (api/dedup.py).
        visible = self._live[:n] & (self._persons[:n] == self._code(person))
        # The product over every row (a view of the matrix, no copy), then the rows this
        # person may not see put last; -2 is below any cosine.
        sims = self._mat[:n] @ np.asarray(vec, dtype=np.float32)
        sims[~visible] = -2.0
        m = min(k, int(visible.sum()))
        if m == 0:
            return []
        # The k-th best similarity, then every row at least that good (ties included) in row
        # order, best first: the same as a stable sort of all rows, without sorting them all.
        kth = np.partition(sims, n - m)[n - m] if m < n else sims.min()
        rows = np.flatnonzero(sims >= kth)
        rows = rows[np.argsort(-sims[rows], kind="stable")][:m]
        return [int(self._ids[r]) for r in rows]

    def _grow(self) -> None:
        # By a quarter: room for growth costs at most a quarter more memory (doubling, half).
        size = len(self._ids) + max(len(self._ids) // 4, 256)
        mat = np.zeros((size, self._mat.shape[1]), dtype=np.float32)
        mat[: self._n] = self._mat[: self._n]
        ids = np.zeros(size, dtype=np.int64)
        ids[: self._n] = self._ids[: self._n]
        live = np.zeros(size, dtype=bool)
        live[: self._n] = self._live[: self._n]
        persons = np.zeros(size, dtype=np.int32)
        persons[: self._n] = self._persons[: self._n]
        self._mat, self._ids, self._live, self._persons = mat, ids, live, persons

    def _code(self, person: str | None) -> int:
        if person is None:
            return SHARED
        return self._codes.setdefault(person, len(self._codes) + 1)
