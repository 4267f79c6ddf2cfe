"""Humble merge rules: how an item evolves when a candidate states the same fact."""

from __future__ import annotations

from typing import Any

from memory_pipelines.core.judge_lexicon import content_stems, words
from memory_pipelines.core.records import ItemInput
from memory_pipelines.core.types import Item

# A longer wording replaces the old one only when it keeps most of what the old one says: a
# version with more detail ("Plays guitar" -> "Plays guitar and bass"), not a neighbour the
# judge took for the same fact, whose words would stand in the old fact's place (LoCoMo: "went
# to an LGBTQ support group" became a hike story told weeks later, and was gone from recall).
KEPT = 0.5


def _union(a: list[Any], b: list[Any]) -> list[Any]:
    out = list(a)
    for v in b:
        if v not in out:
            out.append(v)
    return out


def keeps(old: str, new: str) -> bool:
    """Whether the new wording says most of what the old one says (its content words)."""
    said = content_stems(words(old))
    return not said or len(said & content_stems(words(new))) / len(said) >= KEPT


def merged_fields(old: Item, cand: ItemInput) -> dict[str, Any]:
    """The evolved fields. Machine-sourced text never overwrites user-stated text; a more
    detailed wording (longer, and keeping most of the old one's words: `keeps`) replaces the
    old one otherwise; confidence and importance never go
    down; tags, entities, keywords and edges are unioned, and so is metadata (the item's value
    wins where both have a key; `metadata_dropped` holds the candidate's values it overrode,
    for the version row)."""
    may_overwrite = not (cand.source == "machine" and old.source == "user")
    take_text = (
        may_overwrite and len(cand.context) > len(old.context) and keeps(old.context, cand.context)
    )
    take_body = may_overwrite and len(cand.body) > len(old.body)
    importance = max((v for v in (old.importance, cand.importance) if v is not None), default=None)
    return {
        "context": cand.context if take_text else old.context,
        "body": cand.body if take_body else old.body,
        "source": cand.source if take_text else old.source,
        "confidence": max(old.confidence, cand.confidence),
        "importance": importance,
        "tags": _union(old.tags, cand.tags),
        "entities": _union(old.entities, cand.entities),
        "keywords": _union(old.keywords, cand.keywords),
        "edges": _union(old.edges, cand.edges),
        "metadata": {**cand.metadata, **old.metadata},
        "metadata_dropped": {
            k: v for k, v in cand.metadata.items() if k in old.metadata and old.metadata[k] != v
        },
        "text_changed": take_text,
    }
