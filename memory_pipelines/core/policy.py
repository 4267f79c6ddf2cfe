"""Save policy: should a chat turn become a memory item, and in which category?

Deterministic rules written from the labelling guide (benchmarks/data/policy/README.md). Each
sentence of a turn gets a kind (core/sentence_kinds.py). The turn is labelled by its most durable
part (core/turn_reasons.py), after two checks against the recent turns: content already in
the history (core/in_history.py), and restatements (core/repeats.py, optionally with an
embedding similarity). When the turn can be embedded (embed passed in), a learned model
(core/policy_model.py) weighs what the rules read and has the last word on save or skip.
Pure Python: no database, no model unless a similarity or an embed function is passed in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memory_pipelines.core import policy_model
from memory_pipelines.core.episodes import is_episode, is_recap
from memory_pipelines.core.health_safety import SAFETY
from memory_pipelines.core.hedges import is_belief_only
from memory_pipelines.core.in_history import history_category, is_already_in_history
from memory_pipelines.core.moods import is_mood
from memory_pipelines.core.repeats import Similarity, is_restatement, makes_promise
from memory_pipelines.core.sentence_kinds import plain_statement, sentence_kind, sentences
from memory_pipelines.core.sentence_people import names_somebody
from memory_pipelines.core.turn_reasons import request_details, turn_reason

SAVE_REASONS: dict[str, str] = {  # reason -> category; the order is the priority within a turn
    "hard_lesson": "lesson",
    "commitment": "commitment",
    "shipped_outcome": "fact",
    "decision_with_why": "decision",
    "stable_preference": "preference",
    "durable_fact": "fact",
}
SKIP_REASONS = ("greeting", "meta_chatter", "restatement", "already_in_history", "speculation")


@dataclass(frozen=True)
class PolicyVerdict:
    save: bool
    category: str | None
    reason: str


_SKIP_KINDS = ("meta", "ack", "greeting", "hedge")


def _judge(
    text: str, role: str, recent: Sequence[str], similarity: Similarity | None, item: bool = False
) -> tuple[PolicyVerdict, list[str]]:
    role = role.lower()
    sents = sentences(text)
    kinds = request_details(sents, [sentence_kind(s, role) for s in sents])
    if not sents:
        return PolicyVerdict(False, None, "meta_chatter"), kinds
    if is_already_in_history(text, recent, role):
        return PolicyVerdict(False, None, "already_in_history"), kinds
    if is_restatement(text, role, kinds, recent, similarity, item=item):
        return PolicyVerdict(False, None, "restatement"), kinds
    reason = turn_reason(sents, kinds, list(SAVE_REASONS))
    if reason is not None and any(k in SAVE_REASONS for k in kinds):
        return PolicyVerdict(True, SAVE_REASONS[reason], reason), kinds
    # With no explicit durable marker a hedge beats plain statements ("I might be allergic?
    # I felt weird after the paella.") and a greeting beats the small talk after it.
    # A belief frame ("I think the dog is about nine now") hedges its own sentence only: a
    # concrete fact said beside it without a hedge still saves.
    hedges = [s for k, s in zip(kinds, sents, strict=True) if k == "hedge"]
    if hedges and not ("fact" in kinds and all(is_belief_only(s) for s in hedges)):
        return PolicyVerdict(False, None, "speculation"), kinds
    if kinds[0] == "greeting" and "fact" not in kinds:
        return PolicyVerdict(False, None, "greeting"), kinds
    # A one-off happening of the last hours ("Spilled coffee on my notes this morning") is news
    # of the day, no fact (core/episodes.py).
    if any(
        (k == "fact" or (k == "plain" and plain_statement(s) and not is_mood(s)))
        and not is_episode(s)
        and not is_recap(s)
        for k, s in zip(kinds, sents, strict=True)
    ):
        if reason == "hard_lesson":  # "Don't ever X. We did, and it Y."
            return PolicyVerdict(True, "lesson", "hard_lesson"), kinds
        return PolicyVerdict(True, "fact", "durable_fact"), kinds
    if "greeting" in kinds:
        return PolicyVerdict(False, None, "greeting"), kinds
    return PolicyVerdict(False, None, "meta_chatter"), kinds


def judge_turn(
    text: str,
    role: str = "user",
    recent: Sequence[str] = (),
    *,
    similarity: Similarity | None = None,
    embed: policy_model.Embed | None = None,
) -> PolicyVerdict:
    """Save or skip one chat turn, given up to three earlier turns ("user: ..." strings).
    similarity(text, others) -> cosines is used for restatements; else lexical overlap.
    embed(texts) -> unit vectors lets the learned model decide on top of the rules; when it
    overrides them the reason says "learned: ..." with the features that weighed most."""
    verdict, kinds = _judge(text, role, recent, similarity)
    if embed is None:
        return verdict
    model = policy_model.shipped()
    row = policy_model.feature_row(
        verdict.save, verdict.reason, kinds, text, role, recent, embed([text])[0], model.prototypes
    )
    save, why = model.decide(row)
    kept = verdict.save and (
        _health_told(text, role, kinds)
        or (verdict.category == "commitment" and makes_promise(text, role, timed=True))
    )
    if save == verdict.save or kept:
        # weights never skip a health or safety fact the rules read as said, nor a promise to
        # somebody by a time ("Sure, I'll remind you tomorrow morning." had been skipped as
        # chatter; "Of course, I'll use your name" is a way of working, which they may)
        return verdict
    said = f"learned: {'save' if save else 'skip'} ({', '.join(why)}; rules: {verdict.reason})"
    return PolicyVerdict(save, category_for(text, role) if save else None, said)


def _health_told(text: str, role: str, kinds: Sequence[str]) -> bool:
    """Whether a person's sentence of the turn states a health or safety fact of somebody ("I'm
    lactose intolerant, so maybe stop putting cheese in every recipe": its kind a fact, not a
    hedge). The assistant's words on a medicine, and a choice of one ("Paracetamol it is,
    cheers"), are none."""
    return role.lower() != "assistant" and any(
        k == "fact" and SAFETY.search(s) and names_somebody(s)
        for s, k in zip(sentences(text), kinds, strict=False)
    )


def is_greeting(text: str) -> bool:
    return judge_turn(text).reason == "greeting"


def is_meta_chatter(text: str) -> bool:
    return judge_turn(text).reason == "meta_chatter"


def is_speculation(text: str) -> bool:
    return judge_turn(text).reason == "speculation"


def category_for(text: str, role: str = "user") -> str:
    """Best save category for a text, ignoring the skip rules (for extracted memory items)."""
    kinds = {sentence_kind(s, role.lower()) for s in sentences(text)}
    return next((cat for reason, cat in SAVE_REASONS.items() if reason in kinds), "fact")


LOW_CONFIDENCE = 2  # at or below: low-confidence speculation, skipped by the save policy


def skip_reason_for_item(
    context: str,
    recent_texts: Sequence[str] = (),
    similarity: Similarity | None = None,
    category: str = "",
) -> str | None:
    """Why a memory item's one-line text should not be saved, or None to save it. Items are
    terse ("Allergic to kiwi."), so unlike a turn a short plain line is kept, not chatter. An
    item whose category is an episode or a session summary is history, never memory. The
    learned model (judge_turn's embed) is not used: it was fitted on chat turns, not on terse
    items, whose short plain lines the rules keep on purpose."""
    if category and history_category(category):
        return "already_in_history"
    sents = sentences(context)
    if sents and all(is_recap(s) for s in sents):  # what a conversation was about: history's
        return "already_in_history"
    verdict, kinds = _judge(context, "user", recent_texts, similarity, item=True)
    if verdict.save:
        return None
    if verdict.reason == "meta_chatter" and not any(k in _SKIP_KINDS for k in kinds):
        return None
    return verdict.reason


def evaluate(
    cases: Iterable[Mapping[str, Any]],
    similarity: Similarity | None = None,
    embed: policy_model.Embed | None = None,
) -> dict[str, Any]:
    """Score judge_turn on labelled cases in the policy_dev.jsonl format (with embed: the
    learned model on top of the rules)."""
    tp = {"save": 0, "skip": 0}
    predicted = {"save": 0, "skip": 0}
    gold_n = {"save": 0, "skip": 0}
    cat_n = cat_ok = 0
    misses: list[str] = []
    for case in cases:
        turn = case["turn"]
        v = judge_turn(
            turn["text"], turn["role"], case.get("recent", []), similarity=similarity, embed=embed
        )
        pred, gold = ("save" if v.save else "skip"), case["label"]
        predicted[pred] += 1
        gold_n[gold] += 1
        if pred == gold:
            tp[gold] += 1
        else:
            misses.append(case["id"])
        if gold == "save":
            cat_n += 1
            cat_ok += int(v.category == case.get("category"))
    n = gold_n["save"] + gold_n["skip"]
    per_label = {
        label: {
            "precision": tp[label] / predicted[label] if predicted[label] else 0.0,
            "recall": tp[label] / gold_n[label] if gold_n[label] else 0.0,
            "n": gold_n[label],
        }
        for label in ("save", "skip")
    }
    return {
        "n": n,
        "accuracy": (tp["save"] + tp["skip"]) / n if n else 0.0,
        "per_label": per_label,
        "category_accuracy": cat_ok / cat_n if cat_n else 0.0,
        "misses": misses,
    }
