"""Typed links between memory objects: what a link proposer sees, the local backend's rules,
the check every backend's proposals pass before anything is stored, and the graph's shape.

Pure: no database, no Dagster. Similarities are computed by the caller (the local backend)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import networkx as nx
import numpy as np

from memory_pipelines.core.vocabulary import LINK_TYPES

# Cosine thresholds for all-MiniLM-L6-v2, set on hand-written pairs (see tests/test_links.py):
# an extractive chunk summary shares the item's words, so a low bar finds its chunk; two items
# are "related" only when they share an entity and a topic, or are very close without one.
CHUNK_SIM = 0.3
RELATED_WITH_ENTITY = 0.45
RELATED = 0.65
CAUSE_SIM = 0.5
MAX_RELATED = 3  # per source item, so a popular topic does not become a hairball
# Items that describe a person or team, so a commitment can be owned by one.
OWNER_CATEGORIES = ("person", "profile", "contact", "team")
# Links whose direction means nothing: stored once per pair, smaller (kind, id) first.
SYMMETRIC = ("relates_to",)

Ref = tuple[str, int]  # (kind, id) of a linked object

_CAUSE = re.compile(r"\b(?:because(?: of)?|due to|caused by|as a result of|owing to)\b", re.I)


@dataclass(frozen=True)
class LinkNode:
    """A memory item or chunk as a link proposer sees it."""

    kind: str  # item or chunk
    id: int
    text: str
    category: str = ""  # an item's category; "chunk" for chunks
    level: int = 0  # a chunk's pyramid level
    chat_id: int | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    entities: tuple[str, ...] = ()
    owner: str | None = None  # a commitment's owner (metadata.owner, else its person)
    fed_by: tuple[int, ...] = ()
    valid_from: datetime | None = None
    embedding: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class LinkProposal:
    """A proposed link from the source to candidates[target]; not yet checked."""

    target: Any  # an index into the candidates shown; Any until checked
    type: str
    confidence: Any = 0.5
    reason: str = ""


def cause_clause(text: str) -> str | None:
    """What follows the first causal cue ("because", "due to", ...), or None."""
    m = _CAUSE.search(text)
    if m is None:
        return None
    rest = text[m.end() :].strip(" ,.;:")
    return rest or None


def covers(chunk: LinkNode, item: LinkNode) -> bool:
    """Whether the chunk's turns contain the turns the item was read from."""
    if chunk.chat_id is None or chunk.chat_id != item.chat_id:
        return False
    if chunk.from_seq is None or chunk.to_seq is None or item.from_seq is None:
        return False
    last = item.to_seq if item.to_seq is not None else item.from_seq
    return chunk.from_seq <= item.from_seq and last <= chunk.to_seq


def _describes(node: LinkNode, owner: str) -> bool:
    """Whether the node is an item about the owner themself ("Bo is the data engineer"), not
    merely one that names them: extracted items name their speaker in every entity list."""
    if node.kind != "item" or node.category == "commitment":
        return False
    if node.category in OWNER_CATEGORIES and owner.casefold() in map(str.casefold, node.entities):
        return True
    return re.match(rf"{re.escape(owner)}\s+(?:is|works)\b", node.text, re.I) is not None


def _unit(x: float) -> float:
    return round(min(1.0, max(0.0, float(x))), 3)


def propose_local(
    source: LinkNode,
    candidates: Sequence[LinkNode],
    sims: Sequence[float],
    cause_sims: Sequence[float] | None = None,
) -> list[LinkProposal]:
    """The local backend's rules. sims[i] is the cosine of the source to candidates[i];
    cause_sims[i] that of the source's causal clause (None when it has no cue). Never proposes
    `supersedes`: that link is the dedup judge's to write."""
    out: list[LinkProposal] = []
    best_chunk: tuple[int, LinkProposal] | None = None  # (level, proposal): the lowest level wins
    related: list[LinkProposal] = []
    src_ents = {e.casefold() for e in source.entities}
    for i, (cand, sim) in enumerate(zip(candidates, sims, strict=True)):
        if cand.kind == "chunk":
            if not covers(cand, source):
                continue
            if source.category == "decision":
                p = LinkProposal(i, "decided_in", _unit(0.7 + sim / 3), "decided in these turns")
            elif sim >= CHUNK_SIM:
                p = LinkProposal(i, "discussed_in", _unit(sim), "said in these turns")
            else:
                continue
            if best_chunk is None or cand.level < best_chunk[0]:
                best_chunk = (cand.level, p)
        elif source.category == "decision" and cand.id in source.fed_by:
            out.append(LinkProposal(i, "decided_in", 0.9, "decision drawn from this item"))
        elif source.category == "commitment" and source.owner and _describes(cand, source.owner):
            out.append(LinkProposal(i, "owned_by", 0.8, f"owner {source.owner}"))
        elif (
            cause_sims is not None
            and cause_sims[i] >= CAUSE_SIM
            and (
                cand.valid_from is None
                or source.valid_from is None
                or cand.valid_from <= source.valid_from
            )
        ):  # a cause is not younger than its effect
            out.append(LinkProposal(i, "caused_by", _unit(cause_sims[i]), "causal cue"))
        elif sim >= RELATED or (
            sim >= RELATED_WITH_ENTITY and src_ents & {e.casefold() for e in cand.entities}
        ):
            related.append(LinkProposal(i, "relates_to", _unit(sim), "similar"))
    related.sort(key=lambda p: -p.confidence)
    return ([best_chunk[1]] if best_chunk else []) + out + related[:MAX_RELATED]


def check_proposals(
    proposals: Iterable[LinkProposal], n_candidates: int
) -> tuple[list[LinkProposal], list[str]]:
    """Keep proposals with a vocabulary type, a target among the candidates shown and a
    confidence 0-1; returns (kept, why each other one was dropped). A repeated (target, type)
    keeps its highest confidence."""
    kept: dict[tuple[int, str], LinkProposal] = {}
    dropped: list[str] = []
    for p in proposals:
        if p.type not in LINK_TYPES:
            dropped.append(f"type {p.type!r} is not one of {', '.join(LINK_TYPES)}")
        elif isinstance(p.target, bool) or not isinstance(p.target, int):
            dropped.append(f"target must be a candidate number, got {p.target!r}")
        elif not 0 <= p.target < n_candidates:
            dropped.append(f"target must be 0-{n_candidates - 1}, got {p.target}")
        elif isinstance(p.confidence, bool) or not isinstance(p.confidence, int | float):
            dropped.append(f"confidence must be a number 0-1, got {p.confidence!r}")
        elif not 0.0 <= p.confidence <= 1.0:
            dropped.append(f"confidence must be 0-1, got {p.confidence}")
        else:
            key = (p.target, p.type)
            if key not in kept or p.confidence > kept[key].confidence:
                kept[key] = p
    return list(kept.values()), dropped


def oriented(src: Ref, dst: Ref, link_type: str) -> tuple[Ref, Ref]:
    """The stored direction: symmetric types once per pair, smaller end first."""
    if link_type in SYMMETRIC and dst < src:
        return dst, src
    return src, dst


def out_of_vocabulary(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Link types (with their counts) of rows {link_type, n} that are not in the vocabulary."""
    bad: dict[str, int] = {}
    for r in rows:
        if r["link_type"] not in LINK_TYPES:
            bad[str(r["link_type"])] = bad.get(str(r["link_type"]), 0) + int(r.get("n", 1))
    return bad


def graph_stats(edges: Iterable[tuple[Ref, Ref]]) -> dict[str, int]:
    """Shape of a link graph taken as undirected: nodes (linked objects), edges (links, a
    repeated pair counted each time), connected components and the largest one's size."""
    g: nx.MultiGraph = nx.MultiGraph()
    g.add_edges_from(edges)
    sizes = [len(c) for c in nx.connected_components(g)]
    return {
        "nodes": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "components": len(sizes),
        "largest_component": max(sizes, default=0),
    }
