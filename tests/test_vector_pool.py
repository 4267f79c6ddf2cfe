"""The in-memory vector pool dedup searches during extraction runs."""

import numpy as np

from memory_pipelines.core.vector_pool import VectorPool


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_nearest_sees_the_same_persons_items_only() -> None:
    pool = VectorPool(3)
    pool.put(1, None, _unit(1, 0, 0))  # shared
    pool.put(2, "ana", _unit(1, 0.1, 0))
    pool.put(3, "ben", _unit(1, 0.05, 0))
    pool.put(4, "ana", _unit(0, 1, 0))
    q = _unit(1, 0.08, 0)
    # dedup judges a candidate against its own person's records only (shared against shared)
    assert pool.nearest("ana", q, 2) == [2, 4]
    assert pool.nearest("ben", q, 5) == [3]
    assert pool.nearest(None, q, 5) == [1]


def test_put_replaces_drop_forgets_and_the_pool_grows() -> None:
    pool = VectorPool(2)
    for i in range(1000):
        pool.put(i, None, _unit(1, i / 1000))
    assert len(pool) == 1000
    pool.put(500, None, _unit(-1, 0))  # its text changed
    pool.drop(0)
    assert pool.nearest(None, _unit(1, 0), 2) == [1, 2]
    assert pool.nearest(None, _unit(-1, 0), 1) == [500]
    assert 0 not in pool and 500 in pool


def test_nearest_matches_a_full_stable_sort_with_ties_and_persons() -> None:
    rng = np.random.default_rng(3)
    base = rng.standard_normal((40, 8)).astype(np.float32)
    vecs = np.concatenate([base, base[:10]])  # ten exact duplicates: ties
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    persons = [None, "ana", "ben"]
    pool = VectorPool(8, capacity=4)
    for i, v in enumerate(vecs):
        pool.put(i + 1, persons[i % 3], v)
    pool.drop(7)
    for q in vecs[:12]:
        for person in persons:
            seen = [i for i in range(len(vecs)) if i + 1 != 7 and persons[i % 3] == person]
            sims = vecs[seen] @ q
            want = [seen[j] + 1 for j in np.argsort(-sims, kind="stable")[:6]]
            assert pool.nearest(person, q, 6) == want
    # ben sees his own only (dedup never judges across persons): 16 rows (the dropped one was
    # shared)
    assert len(pool.nearest("ben", vecs[0], 1000)) == 16
