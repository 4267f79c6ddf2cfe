"""evolution@v1, the pure part: what an item learns from its linked neighbours.

Two refreshes, both additions, never removals, never a rewrite of anyone's words:
- tags: a tag or entity that at least MIN_SHARED neighbours carry becomes a tag of the item
  (what its neighbourhood is about);
- entities: an entity of a neighbour that the item's own text names, word for word, becomes an
  entity of the item (the extractor may have missed it; the graph boost in ranking reads it).
Only neighbours every reader of the item may read pass anything on (shared ones, or the same
person's), so a person's labels never reach a shared record. The context is left as it is:
a user's words are theirs, and a machine's wording has no grounded local refinement yet, so
v1 keeps both (an item's version rows show every change it does make).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from memory_pipelines.core.records import MAX_LIST

MIN_SHARED = 2


@dataclass(frozen=True)
class Node:
    id: int
    person: str | None
    text: str  # context and body
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refresh:
    item_id: int
    tags: tuple[str, ...]  # to add
    entities: tuple[str, ...]  # to add
    # who gave each label to add: the neighbours carrying it (store/given_labels.py)
    given: dict[str, dict[str, tuple[int, ...]]] = field(default_factory=dict)


def visible_to(node: Node, neighbour: Node) -> bool:
    """Whether everyone who reads the node may read the neighbour too."""
    return neighbour.person is None or neighbour.person == node.person


def text_names(text: str, label: str) -> bool:
    """Whether the text says the label, word for word (any case)."""
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text, re.IGNORECASE) is not None


def refresh(node: Node, neighbours: Sequence[Node]) -> Refresh | None:
    """The tags and entities to add to the node from its neighbours, or None (nothing new)."""
    seen = [n for n in neighbours if n.id != node.id and visible_to(node, n)]
    have_tags = {t.lower() for t in node.tags}
    have_entities = {e.lower() for e in node.entities}
    votes: Counter[str] = Counter()
    spelling: dict[str, str] = {}
    carriers: dict[str, list[int]] = {}
    for n in seen:
        for label in dict.fromkeys(v.lower() for v in (*n.tags, *n.entities)):
            votes[label] += 1
            carriers.setdefault(label, []).append(n.id)
        for v in (*n.tags, *n.entities):
            spelling.setdefault(v.lower(), v)
    room = MAX_LIST - len(node.tags)
    tags = [
        spelling[label]
        for label, n in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        if n >= MIN_SHARED and label not in have_tags
    ][: max(room, 0)]
    found: dict[str, str] = {}
    named_by: dict[str, list[int]] = {}
    for n in seen:
        for e in n.entities:
            if e.lower() not in have_entities and text_names(node.text, e):
                found.setdefault(e.lower(), e)
                named_by.setdefault(e.lower(), []).append(n.id)
    entities = sorted(found.values())[: max(MAX_LIST - len(node.entities), 0)]
    if not tags and not entities:
        return None
    given = {
        "tags": {t: tuple(carriers[t.lower()]) for t in tags},
        "entities": {e: tuple(named_by[e.lower()]) for e in entities},
    }
    return Refresh(node.id, tuple(tags), tuple(entities), given)


def merged(existing: Sequence[str], added: Sequence[str]) -> list[str]:
    """existing plus the added ones it lacks (compared without case), order kept."""
    have = {v.lower() for v in existing}
    return [*existing, *(a for a in added if a.lower() not in have)][:MAX_LIST]
