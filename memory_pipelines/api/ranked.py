"""A query's candidates ranked: every kind's candidates from the indexes (store/search.py)
scored on one scale (core/ranking.py), best first. What Recall.search reads its top k from,
and what evals/activation.py measures with and without the gated jobs' fields."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memory_pipelines.core import question_times, ranking
from memory_pipelines.store import entities as entities_db
from memory_pipelines.store import search as search_db
from memory_pipelines.store.db import Conn


def rank_candidates(
    conn: Conn,
    store_id: str,
    query: str,
    qvec: np.ndarray,
    kinds: Sequence[str],
    person: str | None,
    depth: int,
    now: datetime,
    consume: Sequence[str] | None = None,
    graph: bool = True,
    spare: search_db.Spare | None = None,
    names: Sequence[str] | None = None,
    found_words: search_db.Words | None = None,
) -> list[tuple[ranking.Candidate, float]]:
    """Every candidate of these kinds for the query with its score, best first: what `search`
    ranks (also measured by evals/activation.py). `consume` names the gated jobs whose fields
    ranking uses; None: the jobs active for the store (see store.search.candidates). `graph`
    off (the Search card's knowledge graph): no entity of the question brings or boosts a
    record. `spare`: see store.search.candidates. `names`: the question's entity names when
    they were looked up already (None: looked up here); `found_words` the same for the
    candidates by words (store.search.words)."""
    if not graph:
        names = []
    elif names is None:
        names = entities_db.entity_names(conn, store_id, ranking.capitalised(query))
    windows = question_times.question_windows(query, now)
    found = search_db.candidates(
        conn,
        kinds,
        store_id,
        query,
        qvec,
        person,
        depth,
        names,
        consume,
        spare=spare,
        found_words=found_words,
        windows=windows,
        asks_when=question_times.ASKS_WHEN.search(query) is not None,
    )
    cands = [
        ranking.Candidate(
            kind,
            int(r["id"]),
            r["lexical"],
            r["cos"],
            int(r["named"]),
            r.get("salience"),
            r.get("confidence"),
            r.get("at"),
            bool(r.get("asks")),
            float(r.get("context") or 0.0),
            _span(r),
            r.get("level"),
            bool(r.get("says_when")),
        )
        for kind in kinds
        for r in found[kind]
    ]
    return ranking.rank(cands, now, windows)


def _span(row: dict[str, Any]) -> tuple[int, int, int] | None:
    """The turns a turn or chunk candidate covers: (chat_id, from_seq, to_seq)."""
    if row.get("chat_id") is None or row.get("from_seq") is None:
        return None
    return int(row["chat_id"]), int(row["from_seq"]), int(row["to_seq"])
