"""Humble merge rules: how an item evolves when a candidate states the same fact."""

from __future__ import annotations

from typing import Any

from memory_pipelines.core.records import ItemInput


def _union(a: list[Any], b: list[Any]) -> list[Any]:
    out = list(a)
    for v in b:
        if v not in out:
            out.append(v)
    return out


def merged_fields(old: dict[str, Any], cand: ItemInput) -> dict[str, Any]:
    """The evolved fields. Machine-sourced text never overwrites user-stated text; a more
    detailed wording (longer) replaces the old one otherwise; confidence and importance never go
    down; tags, entities, keywords and edges are unioned, and so is metadata (the item's value
    wins where both have a key; `metadata_dropped` holds the candidate's values it overrode,
    for the version row)."""
    may_overwrite = not (cand.source == "machine" and old["source"] == "user")
    take_text = may_overwrite and len(cand.context) > len(old["context"])
    take_body = may_overwrite and len(cand.body) > len(old["body"] or "")
    importance = max(
        (v for v in (old.get("importance"), cand.importance) if v is not None), default=None
    )
    edges = [{"type": e.type, "kind": e.kind, "target": e.id} for e in cand.edges]
    return {
        "context": cand.context if take_text else old["context"],
        "body": cand.body if take_body else (old["body"] or ""),
        "source": cand.source if take_text else old["source"],
        "confidence": max(old["confidence"], cand.confidence),
        "importance": importance,
        "tags": _union(old["tags"], cand.tags),
        "entities": _union(old["entities"], cand.entities),
        "keywords": _union(old["keywords"], cand.keywords),
        "edges": _union(list(old["edges"]), edges),
        "metadata": {**cand.metadata, **(old.get("metadata") or {})},
        "metadata_dropped": {
            k: v
            for k, v in cand.metadata.items()
            if k in (old.get("metadata") or {}) and old["metadata"][k] != v
        },
        "text_changed": take_text,
    }
