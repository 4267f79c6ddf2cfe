"""A candidate from any extractor (the local rules or a language model) checked before it is
saved: its provenance inside the window it was read from, its category allowed, a valid item
whose confidence is capped (a machine proposes, a person states), no links of its own,
nothing the save policy skips, and no more than the budget of saves per turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory_pipelines.core import policy
from memory_pipelines.core.health_safety import SAFETY

MAX_CONFIDENCE = 6
# where a candidate came from, set by the write path (never taken from an extractor's answer):
# its turns, and whether it may hold a tool turn's words (api/extraction.py)
PROVENANCE_KEYS = ("from_seq", "to_seq", "from_tools")
MAX_PER_TURN = 2  # the spec's budget of saves per turn, enforced on the write path


POLICY_DROP = "save policy: "  # how a candidate the save policy refuses is dropped (its why)


def check_candidate(
    raw: Any, from_seq: int, to_seq: int, types: Sequence[str]
) -> tuple[dict[str, Any] | None, str | None]:
    """A candidate as a valid memory item dict (confidence capped), or None and why not."""
    from memory_pipelines.core.records import validate_item
    from memory_pipelines.errors import ValidationError

    if not isinstance(raw, dict):
        return None, "not an object"
    first, last = raw.get("from_seq"), raw.get("to_seq")
    if not (
        isinstance(first, int) and isinstance(last, int) and from_seq <= first <= last <= to_seq
    ):
        return None, f"provenance {first}-{last} outside the window {from_seq}-{to_seq}"
    if types and raw.get("category") not in types:
        return None, f"category {raw.get('category')!r} not in the allowed types"
    # An extractor reads turns, never a record's id: links it gives ("edges") could only be
    # made up, or put in its mouth by a turn's text, and would tie this chat's person's record
    # to any record of any store. Its item is saved without them.
    item = {k: v for k, v in raw.items() if k not in PROVENANCE_KEYS and k != "edges"}
    conf = item.get("confidence", MAX_CONFIDENCE)
    if isinstance(conf, int) and not isinstance(conf, bool):
        item["confidence"] = min(conf, MAX_CONFIDENCE)
    item["source"] = "machine"
    try:
        parsed = validate_item(item)
    except ValidationError as exc:
        return None, str(exc)
    # The save policy holds for whatever model read the window: no greeting, talk about the
    # chat or speculation becomes memory. (Not "already in history": a fact taken from the
    # window is in it by definition; nor restatements of it, for the same reason.)
    if parsed.confidence <= policy.LOW_CONFIDENCE:
        return None, f"{POLICY_DROP}speculation (confidence at most 2)"
    skip = policy.skip_reason_for_item(parsed.context, category=parsed.category)
    if skip is not None:
        return None, f"{POLICY_DROP}{skip}"
    return {**item, "from_seq": first, "to_seq": last}, None


def over_budget(items: Sequence[dict[str, Any]], budget: int = MAX_PER_TURN) -> list[int]:
    """The indexes of checked candidates past `budget` (the store's save policy's saves a
    turn; 0, which stops an agent's saves during turns, leaves extraction at MAX_PER_TURN) for
    the turn that said them (their `to_seq`), to be dropped under the save policy: a model may
    give any number for one turn. A health or safety fact is kept before the rest ("allergic
    to penicillin" is never the one dropped), then the extractor's own order."""
    budget = budget or MAX_PER_TURN
    by_turn: dict[Any, list[int]] = {}
    for i, item in enumerate(items):
        by_turn.setdefault(item.get("to_seq"), []).append(i)
    out = []
    for seqs in by_turn.values():
        ranked = sorted(seqs, key=lambda i: not SAFETY.search(str(items[i].get("context", ""))))
        out += ranked[budget:]
    return sorted(out)
