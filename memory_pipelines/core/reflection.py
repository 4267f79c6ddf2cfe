"""reflection@v1, the pure part: clusters of never-recalled items, and the insight each becomes.

Items nobody recalled are grouped as communities (Louvain, seeded so a rerun finds the same)
over a graph whose edges are the store's links between them plus similarity edges (cosine at or
above SIM_BAR, at most NEIGHBOURS per item, so one broad topic does not swallow the store).
Edges never join two persons' records: an insight is read by whoever may read all of its
members. A community of MIN_CLUSTER or more becomes one insight: a derived record, trusted only
if every member is, confidence at most MAX_CONFIDENCE (a machine proposes, a person states).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from memory_pipelines.core.records import MAX_CONTEXT, MAX_LIST, trust_for

SIM_BAR = 0.5  # all-MiniLM-L6-v2: same topic and subject (see tests/test_reflection.py)
NEIGHBOURS = 5
MIN_CLUSTER = 3
MAX_CLUSTER = 12  # a bigger community is split once at a finer resolution, else left alone
MAX_CONFIDENCE = 6
SUMMARY_WORDS = 40
SEED = 7


@dataclass(frozen=True)
class Member:
    """A current, never-recalled item as reflection reads it."""

    id: int
    person: str | None
    context: str
    confidence: int
    trusted: bool
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    embedding: np.ndarray | None = field(default=None, compare=False, repr=False)


def build_graph(
    members: Sequence[Member],
    links: Sequence[tuple[int, int, float]],
    bar: float = SIM_BAR,
    k: int = NEIGHBOURS,
) -> nx.Graph:
    """Nodes: the members. Edges: links between two members of the same person (weight: the
    link's confidence) and each member's k most similar of the same person at cosine >= bar."""
    g = nx.Graph()
    person = {m.id: m.person for m in members}
    g.add_nodes_from(person)
    for a, b, w in links:
        if a != b and a in person and b in person and person[a] == person[b]:
            g.add_edge(a, b, weight=max(float(w), g.get_edge_data(a, b, {}).get("weight", 0.0)))
    by_person: dict[str | None, list[Member]] = {}
    for m in members:
        if m.embedding is not None:
            by_person.setdefault(m.person, []).append(m)
    for group in by_person.values():
        if len(group) < 2:
            continue
        vecs = np.stack([m.embedding for m in group if m.embedding is not None])
        sims = vecs @ vecs.T
        np.fill_diagonal(sims, -1.0)
        for i, row in enumerate(sims):
            for j in np.argsort(-row)[:k]:
                if row[j] < bar:
                    break
                a, b = group[i].id, group[int(j)].id
                w = max(float(row[j]), g.get_edge_data(a, b, {}).get("weight", 0.0))
                g.add_edge(a, b, weight=w)
    return g


def clusters(g: nx.Graph) -> tuple[list[list[int]], int]:
    """(communities of MIN_CLUSTER..MAX_CLUSTER members as sorted ids, sorted; how many were
    too big even after one finer split and were left alone)."""
    out: list[list[int]] = []
    too_big = 0
    for community in nx.community.louvain_communities(g, weight="weight", seed=SEED):
        parts = [community]
        if len(community) > MAX_CLUSTER:
            parts = nx.community.louvain_communities(
                g.subgraph(community), weight="weight", resolution=2.0, seed=SEED
            )
        for part in parts:
            if len(part) > MAX_CLUSTER:
                too_big += 1
            elif len(part) >= MIN_CLUSTER:
                out.append(sorted(int(i) for i in part))
    return sorted(out), too_big


def cohesion(members: Sequence[Member]) -> float:
    """Mean pairwise cosine of the members' embeddings (0 without embeddings)."""
    vecs = [m.embedding for m in members if m.embedding is not None]
    if len(vecs) < 2:
        return 0.0
    m = np.stack(vecs)
    sims = m @ m.T
    n = len(vecs)
    return float((sims.sum() - np.trace(sims)) / (n * (n - 1)))


def decide(
    ids: Sequence[int], existing: Sequence[tuple[int, str, Sequence[int]]]
) -> tuple[str, int | None]:
    """What to do with a cluster, given the store's insights as (id, state, fed_by):
    ("skip", id) when an insight of exactly these members exists (in any state: one archived or
    replaced is not made again); ("supersede", id) when a current insight was fed by a strict
    subset of them (the cluster grew); else ("create", None)."""
    members = frozenset(ids)
    for insight_id, _, fed in existing:
        if frozenset(fed) == members:
            return "skip", insight_id
    for insight_id, state, fed in existing:
        if state == "current" and frozenset(fed) < members:
            return "supersede", insight_id
    return "create", None


def one_line(text: str, limit: int = MAX_CONTEXT) -> str:
    """The summary as an item's context: one line, at most `limit` characters, cut at a word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def insight_item(members: Sequence[Member], summary: str) -> tuple[dict[str, Any], bool]:
    """(The insight's fields for validate_item, whether it is trusted: the least trust of what
    fed it). Tags and entities are those at least two members share."""

    def shared(values: list[tuple[str, ...]]) -> list[str]:
        counts = Counter(v for vs in values for v in dict.fromkeys(vs))
        return [v for v, n in counts.most_common() if n >= 2][:MAX_LIST]

    item = {
        "category": "insight",
        "context": one_line(summary),
        "confidence": min(MAX_CONFIDENCE, *(m.confidence for m in members)),
        "tags": shared([m.tags for m in members]),
        "entities": shared([m.entities for m in members]),
        "person": members[0].person,
        "source": "machine",
        "metadata": {"job": "reflection@v1", "members": len(members)},
    }
    return item, trust_for("derived", [m.trusted for m in members])
