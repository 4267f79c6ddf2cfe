"""An in-memory copy of a store's item vectors, for dedup over many candidates in one run.

Scanning every item of a store in SQL for each candidate costs time proportional to the store;
an extraction run saves thousands of candidates. The pool holds each current item's vector and
person once, answers the nearest ones with one matrix product, and is kept up to date by its
owner: the run's own writes as they happen, other writers' from the change feed (api/dedup.py).
"""

from __future__ import annotations

import numpy as np

SHARED = 0  # the person code of shared items (person_id NULL)


class VectorPool:
    """Vectors by item id, with the person each item belongs to (shared when None)."""

    def __init__(self, dim: int) -> None:
        self._mat = np.zeros((256, dim), dtype=np.float32)
        self._ids = np.zeros(256, dtype=np.int64)
        self._persons = np.zeros(256, dtype=np.int32)  # codes: SHARED or _codes[person]
        self._codes: dict[str, int] = {}
        self._live = np.zeros(256, dtype=bool)
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
        visible = self._live[:n] & (self._persons[:n] == self._code(person))
        rows = np.flatnonzero(visible)
        if rows.size == 0:
            return []
        sims = self._mat[rows] @ np.asarray(vec, dtype=np.float32)
        top = np.argsort(-sims, kind="stable")[:k]
        return [int(self._ids[rows[i]]) for i in top]

    def _grow(self) -> None:
        size = 2 * len(self._ids)
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
