"""The deterministic dedup judge: merge, supersede or create for a new memory item.

Recall hands the judge a candidate and its nearest existing items. Cosine similarity alone cannot
tell a paraphrase from "same attribute, other person" (both score high) nor spot a moved value
(often low), so the judge combines it with structure from `judge_rules`: who the item is about,
typed values (numbers, dates, times, money), change cues, old-value mentions and small frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memory_pipelines.core.judge_rules import (
    Analysis,
    analyse,
    lowercase_vocabulary,
    shared_values,
    value_conflicts,
)


@dataclass(frozen=True)
class JudgeItem:
    context: str
    category: str
    confidence: int = 5
    origin: str = "user"  # 'user' or 'machine'
    valid_from: str | None = None  # ISO date


@dataclass(frozen=True)
class JudgeDecision:
    action: str  # 'merge' | 'supersede' | 'create'
    target: int | None  # index into `existing`, None for create
    reason: str  # short human-readable why (goes into run logs)


@dataclass(frozen=True)
class Pair:
    """How the candidate relates to one existing item."""

    index: int
    cos: float
    same_category: bool
    subject_conflict: bool  # both name who they are about, and it is not the same one
    shared_subject: bool  # both are about the same named person, pet or thing
    name_conflict: bool  # each side names a product/place/person the other does not
    shared_names: int  # proper names of the candidate that this item also uses
    slot_hit: bool  # "a new manager" and this item is about the manager
    narrower: bool  # this item's subject carries a qualifier the candidate lacks
    value_conflicts: tuple[str, ...]  # value types where the two hold different values
    shared_values: int
    contain_existing: float  # share of the existing item's words found in the candidate
    contain_candidate: float
    predicate_overlap: float  # overlap of what is said, once the subject is set aside
    old_hit: float  # share of the candidate's "from X"/"stopped X" words found here
    frame_match: bool
    frame_mismatch: bool
    polarity_flip: bool  # "won't renew" vs "will renew"
    contrast: bool  # swapped word that the store uses for a different subject


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(b) if b else 0.0


def _mentions(a: Analysis, name: str) -> bool:
    # "React-only" mentions React; "X-T4" does not mention "X100V".
    return name in a.tokens or name in a.entities or name.split("-")[0] in a.tokens


def _narrower(e: Analysis, c: Analysis) -> bool:
    # A hyphenated qualifier on the existing subject that the candidate lacks ("skip-level
    # manager", "half-marathon best") marks a narrower slot than the candidate's.
    return any("-" in w and not any(ch.isdigit() for ch in w) for w in e.subject_stems - c.stems)


def _flip(c: Analysis, e: Analysis) -> bool:
    # The same verb negated on exactly one side is a reversal ("won't renew" -> "will renew").
    return bool((e.negated - c.negated) & c.stems) or bool((c.negated - e.negated) & e.stems)


def _contrast(i: int, c: Analysis, others: Sequence[Analysis]) -> bool:
    """Near-identical items that differ by a word the store itself uses for another subject.

    "Security review for the mobile app" vs "... the web app": when another stored item talks
    about the "mobile" thing, mobile and web are two subjects, not two words for one.
    """
    e = others[i]
    only_c = c.stems - e.stems
    only_e = e.stems - c.stems
    if not only_c or not only_e or len(only_c) > 3 or len(only_e) > 3:
        return False
    rest = [o for j, o in enumerate(others) if j != i]
    return any(only_c & o.stems for o in rest) and any(only_e & o.stems for o in rest)


def _pair(i: int, c: Analysis, existing: Sequence[Analysis], cos: float, same_cat: bool) -> Pair:
    e = existing[i]
    c_names = {n for n in c.names if not _mentions(e, n)}
    e_names = {n for n in e.names if not _mentions(c, n)}
    # Different subjects only when neither side even mentions the other's subject: "the kids
    # stay at their dad's" and "shares custody; the children are with their father" agree.
    subject_conflict = (
        bool(c.subject)
        and bool(e.subject)
        and not (c.subject & e.subject)
        and not ((c.subject - {"user"}) & e.entities)
        and not ((e.subject - {"user"}) & c.entities)
    )
    return Pair(
        index=i,
        cos=cos,
        same_category=same_cat,
        subject_conflict=subject_conflict,
        shared_subject=bool((c.subject & e.subject) - {"user"}),
        name_conflict=bool(c_names) and bool(e_names),
        shared_names=sum(_mentions(e, n) for n in c.names),
        slot_hit=bool(c.slot_words & e.subject_stems),
        narrower=_narrower(e, c),
        value_conflicts=tuple(sorted(value_conflicts(c.values, e.values))),
        shared_values=shared_values(c.values, e.values),
        contain_existing=_overlap(c.stems, e.stems),
        contain_candidate=_overlap(e.stems, c.stems),
        predicate_overlap=max(
            _overlap(c.predicate_stems, e.predicate_stems),
            _overlap(e.predicate_stems, c.predicate_stems),
        ),
        old_hit=_overlap(e.stems, c.old_words),
        frame_match=bool(c.frames & e.frames),
        frame_mismatch=bool(c.frames) and bool(e.frames) and not (c.frames & e.frames),
        polarity_flip=_flip(c, e),
        contrast=_contrast(i, c, existing),
    )


def _supersede_score(p: Pair, c: Analysis, e: Analysis) -> float:
    # Under a change cue the old value is often worded differently from the new one, so
    # explicit old-value mentions, frames and same-type value changes outweigh cosine.
    score = p.cos + 0.3 * p.contain_existing
    score += 0.5 * min(p.old_hit, 1.0) + 0.45 * p.frame_match + 0.3 * p.polarity_flip
    score += 0.2 * (p.shared_names > 0)
    # "Slipped to 15 May" needs an item that holds a date: weigh value changes by the cue.
    moved_value = bool(c.cues & {"number moved", "date moved"})
    score += (0.35 if moved_value else 0.15) * bool(p.value_conflicts) + 0.1 * e.tentative
    score += 0.3 * p.slot_hit
    score -= 0.5 * p.subject_conflict + 0.15 * (not p.same_category) + 0.05 * p.narrower
    return score


def _merge_score(p: Pair) -> float:
    return p.cos + 0.25 * p.contain_existing + 0.05 * min(p.shared_values, 2) - 0.05 * p.narrower


def _merge_blocker(p: Pair, c: Analysis, e: Analysis) -> str | None:
    """Why this nearest item is a near miss rather than the same fact (None if it is not)."""
    if p.subject_conflict:
        return "different subject"
    if p.contrast:
        return "same attribute, other subject"
    if p.value_conflicts:
        return f"different {p.value_conflicts[0]}"
    if p.name_conflict:
        return "different named value"
    if p.frame_mismatch:
        return "different slot"
    if p.shared_subject and p.predicate_overlap < 0.5 and p.cos < 0.85 and not c.existence:
        return "same subject, different attribute"
    if c.exception and not e.exception:
        return "exception beside a rule"
    if c.additive and p.contain_existing < 1.0:
        return "an additional item"
    if not p.same_category and p.cos < 0.65:
        return "different category"
    return None


MERGE_THRESHOLD = 0.52
SUPERSEDE_FLOOR = 0.45
STRICT_SAME_SLOT = 0.8


def decide(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
) -> JudgeDecision:
    """Judge one candidate against its recalled neighbours; target indexes `existing`."""
    if not existing:
        return JudgeDecision("create", None, "nothing stored nearby")
    vocab = lowercase_vocabulary([candidate.context, *(x.context for x in existing)])
    c = analyse(candidate.context, vocab)
    es = [analyse(x.context, vocab) for x in existing]
    sims = np.asarray(existing_vecs, dtype=np.float32) @ np.asarray(cand_vec, dtype=np.float32)
    pairs = [
        _pair(i, c, es, float(sims[i]), x.category == candidate.category)
        for i, x in enumerate(existing)
    ]

    flips = [p for p in pairs if p.polarity_flip and p.cos >= SUPERSEDE_FLOOR]
    if c.cues or flips:
        best = max(pairs, key=lambda p: _supersede_score(p, c, es[p.index]))
        e = es[best.index]
        evidence = (
            best.cos >= SUPERSEDE_FLOOR
            or best.old_hit > 0
            or best.frame_match
            or best.polarity_flip
            or best.shared_names > 0
            or best.slot_hit
        )
        if evidence and not best.subject_conflict:
            cue = ", ".join(sorted(c.cues)) or "negation flipped"
            if _restates(best, c, e):
                return JudgeDecision("merge", best.index, f"change cue ({cue}) but same value")
            return JudgeDecision("supersede", best.index, f"value changed ({cue})")

    best = max(pairs, key=_merge_score)
    e = es[best.index]
    if (
        best.cos >= STRICT_SAME_SLOT
        and best.value_conflicts
        and best.same_category
        and not best.subject_conflict
        and not best.contrast
    ):
        # Nearly the same sentence with another number or date: an update said without a cue.
        kind = best.value_conflicts[0]
        return JudgeDecision("supersede", best.index, f"same slot, {kind} changed")
    blocker = _merge_blocker(best, c, e)
    if blocker:
        return JudgeDecision("create", None, f"nearest is a near miss: {blocker}")
    if _merge_score(best) >= MERGE_THRESHOLD or best.contain_existing == 1.0:
        return JudgeDecision("merge", best.index, f"same fact (cos {best.cos:.2f})")
    return JudgeDecision("create", None, f"no stored item states this (cos {best.cos:.2f})")


def _restates(p: Pair, c: Analysis, e: Analysis) -> bool:
    """A cue whose new value the store already holds: "moved to Bristol" + "lives in Bristol"."""
    if p.value_conflicts or p.old_hit or p.polarity_flip or not c.names:
        return False
    return c.names <= set(e.tokens) and bool(c.cues <= {"moved", "now", "new", "back"})


def evaluate(cases: Sequence[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    """Run decide() over cases in the dev-file format and score label + target."""
    texts: list[str] = []
    for case in cases:
        texts.append(case["candidate"]["context"])
        texts.extend(x["context"] for x in case["existing"])
    vecs = embedder.embed(texts)
    labels = ("merge", "supersede", "create")
    confusion = {t: dict.fromkeys(labels, 0) for t in labels}
    misses: list[str] = []
    correct = 0
    row = 0
    for case in cases:
        n = len(case["existing"])
        cand_vec, ex_vecs = vecs[row], vecs[row + 1 : row + 1 + n]
        row += 1 + n
        existing = [_item(x) for x in case["existing"]]
        decision = decide(_item(case["candidate"]), existing, cand_vec, ex_vecs)
        confusion[case["label"]][decision.action] += 1
        target = None if decision.target is None else case["existing"][decision.target]["id"]
        ok = decision.action == case["label"] and (
            decision.action == "create" or target == case["target"]
        )
        correct += ok
        if not ok:
            misses.append(case["id"])
    per_label = {}
    for lab in labels:
        tp = confusion[lab][lab]
        pred = sum(confusion[t][lab] for t in labels)
        true = sum(confusion[lab].values())
        per_label[lab] = {
            "precision": round(tp / pred, 3) if pred else 0.0,
            "recall": round(tp / true, 3) if true else 0.0,
            "n": true,
        }
    return {
        "n": len(cases),
        "accuracy": round(correct / len(cases), 3) if cases else 0.0,
        "per_label": per_label,
        "confusion": confusion,
        "misses": misses,
    }


def _item(raw: dict[str, Any]) -> JudgeItem:
    return JudgeItem(
        context=raw["context"],
        category=raw.get("category", "fact"),
        confidence=int(raw.get("confidence", 5)),
        origin=raw.get("origin", "user"),
        valid_from=raw.get("valid_from"),
    )
