"""Save policy: should a chat turn become a memory item, and in which category?

Deterministic rules written from the labelling guide (benchmarks/data/policy/README.md). Each
sentence of a turn gets a kind (core/sentence_kinds.py). The turn is labelled by its most durable
part, after two checks against the recent turns: content already in the history, and
restatements (optionally with an embedding similarity). Pure Python: no database, no model unless
a similarity function is passed in."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from memory_pipelines.core.sentence_kinds import (
    ADDITIVE,
    DEADLINE,
    SAFETY,
    content_words,
    is_belief_only,
    norm,
    sentence_kind,
    sentences,
)

Similarity = Callable[[str, Sequence[str]], list[float]]

SAVE_REASONS: dict[str, str] = {  # reason -> category; the order is the priority within a turn
    "hard_lesson": "lesson",
    "commitment": "commitment",
    "shipped_outcome": "fact",
    "decision_with_why": "decision",
    "stable_preference": "preference",
    "durable_fact": "fact",
}
SKIP_REASONS = ("greeting", "meta_chatter", "restatement", "already_in_history", "speculation")
# Cut-offs for all-MiniLM-L6-v2: paraphrases of a recent turn sit above 0.7, while a turn that
# opens like a reply ("Yeah, ...") only has to be on the same topic.
ECHO_SIM = 0.7
CUED_ECHO_SIM = 0.4
LEXICAL_ECHO = 0.5  # share of content words already in recent turns, when there is no embedder


@dataclass(frozen=True)
class PolicyVerdict:
    save: bool
    category: str | None
    reason: str


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_HISTORY = _rx(
    r"^\W*(?:\w+\W+){0,3}(?:recap|summary|summari[sz]e)\b|\bsum(?:ming)? up\b|^\W*quoting\b|"
    r"\b(?:pasting|re-?sending|re-?posting|resend(?:ing)?|copying|forwarding)\b|"
    r"\bhere it is again\b|\bfrom before\b|\b(?:your|my) earlier (?:answer|message|reply)\b|"
    r"\bwhat (?:i|you) (?:wrote|said) earlier\b|\bsame (?:error|output|log|traceback)\b|"
    r"\b(?:sent|pasted|posted|shared) (?:earlier|before)\b|"
    r"^\W*(?:again|once more):"
)
# A recap announces itself before its first colon: "Session summary: ...", "Recap: ...".
# The head names a recap ("Daily digest: ...") or the conversation as its topic ("Here's what we
# covered today: ...").
_RECAP_HEAD = _rx(
    r"\brecap\w*|\bsummar(?:y|ies|ise|ize)\b|\bso far\b|\bwhere we (?:are|landed)\b|\bdigest\b|"
    r"\brundown\b|\bround-?up\b|\bwrap-?up\b|\btl;?dr\b|\bwhat (?:we|you and i) "
    r"(?:covered|discussed|talked (?:about|through)|went (?:over|through))\b"
)
_QUOTED = re.compile(r"[\"\u201c`]([^\"\u201d`]{20,})[\"\u201d`]")
_ECHO_STRONG = _rx(
    r"\bwhat you're saying\b|\bso you mean\b|\bif i understand\b|\bwhat i said\b|"
    r"\b(?:like|as) i (?:said|mentioned)\b|\bto be clear\b|\bin other words\b|\bas mentioned\b|"
    r"\bgot it\W*$|\bthat's the gist\b|\bin a nutshell\b|\b(?:right|correct|is that right)\?$"
)
# A reply cue: an opener ("Yeah, ...", "So ...") or a closing confirmation tag ("7:10, right.").
_ECHO_WEAK = _rx(
    r"^\W*(?:yeah|yep|yes|so|basically|right|exactly|i mean)\b|"
    r",\s*(?:right|correct|yes|yeah|yep|ok(?:ay)?)\W*$"
)
# The assistant acknowledging what it was told: an ack, an assessment of the user's choice
# ("Greenway makes sense, since ..."), or the user's words given as its reason ("Since you work
# nights, I'll ...").
_ASSISTANT_ACK = _rx(
    r"^\W*(?:noted|got it|understood|ok(?:ay)?|will do|gotcha|of course|sure|right|makes sense|"
    r"sounds like|so you)\b|\bnoted\b|"
    r"^\W*(?:\w+\W+){0,3}?(?:makes (?:total |good )?sense|"
    r"(?:(?:is|was|'s) (?:a )?|(?:sounds|seems) like (?:a )?)"
    r"(?:good|great|sensible|smart|wise) (?:choice|call|idea|plan|pick|move)|"
    r"(?:sounds|seems) (?:good|great|right|sensible|wise))\b|"
    r"^\W*(?:since|as|given(?: that)?|because) you(?:'re|'ve|'d| \w+)"
)
# "Never buy X. They refused my claim." A rule for oneself backed by a past mishap is a lesson;
# a rule that mentions me/you ("Never book me on red-eyes") is a preference about the service.
_SELF_RULE = _rx(r"^\W*(?:never|always|don't|do not) (?!.*\b(?:me|my|you|your)\b)")
_PAST = _rx(r"\b(?:was|were|had|lost|got|\w+ed)\b")
_SKIP_KINDS = ("meta", "ack", "greeting", "hedge")

# Episodes and session summaries never become memory items (the spec): they are the history
# channel's job. A category naming a stretch of conversation rather than a kind of fact.
_HISTORY_CATEGORY = re.compile(
    r"^(?:\w+[_-])?(?:episodes?|episodic|sessions?|summary|summaries|recaps?|conversations?|transcripts?"
    r"|dialogues?|chat|chats|chat[_-]?logs?|logs?|turns?|messages?|threads?)(?:[_-]\w+)?$",
    re.IGNORECASE,
)


def history_category(category: str) -> bool:
    """Whether a category names an episode, a session or its summary (never a memory item)."""
    return bool(_HISTORY_CATEGORY.match(category.strip()))


def _strip_role(line: str) -> str:
    return re.sub(r"^(?:user|assistant|system|tool):\s*", "", line.strip(), flags=re.IGNORECASE)


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:[.,]\d+)*", text))


def _shares_run(a: str, b: str, n: float) -> bool:
    """Whether a and b share a run of at least n characters. A run that long covers one of a's
    pieces of length ~n/2 cut at fixed steps, so when b holds none of them there is no need
    for the (slow) longest-match search."""
    size = max(1, int(n + 1) // 2)
    if not any(a[i : i + size] in b for i in range(0, len(a) - size + 1, size)):
        return False
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match().size >= n


def is_already_in_history(text: str, recent: Sequence[str] = (), role: str = "user") -> bool:
    """Recaps, summaries, re-pastes and quotes: a cue, or a long stretch copied from a recent
    turn. A user re-pasting a block is history; the assistant echoing a line is a restatement."""
    if _HISTORY.search(text) or (":" in text and _RECAP_HEAD.search(text.split(":", 1)[0])):
        return True
    flat = norm(text)
    # Quoted spans and the lines of a pasted block are checked one by one.
    lines = text.strip().splitlines()
    quotes = [norm(q) for q in [*_QUOTED.findall(text), *lines[1:]] if len(q.strip()) >= 20]
    block = "\n" in text.strip() or role == "user"
    for line in recent:
        other = norm(_strip_role(line))
        if any(_shares_run(q, other, 0.8 * len(q)) for q in quotes):
            return True
        if block and _shares_run(flat, other, max(30, len(flat) // 2)):
            return True
    return False


def _is_restatement(
    text: str, role: str, kinds: list[str], recent: Sequence[str], similarity: Similarity | None
) -> bool:
    if not recent or ADDITIVE.search(text):
        return False  # "and amoxicillin too": a restatement that adds a detail is a save
    if _ECHO_STRONG.search(text):
        return True
    if all(k in ("meta", "greeting", "hedge") for k in kinds):
        return False  # a skip with its own, more specific reason
    others = [_strip_role(r) for r in recent]
    new_numbers = _numbers(text) - _numbers(" ".join(others))
    new_deadline = bool(DEADLINE.search(text)) and not any(DEADLINE.search(o) for o in others)
    if role == "assistant" and _ASSISTANT_ACK.search(text) and not (new_numbers or new_deadline):
        # "Noted: no chicken bones for Luna." The assistant only confirms what it was told.
        return not any(k in ("hard_lesson", "shipped_outcome") for k in kinds)
    if SAFETY.search(text):
        # A health or safety fact is never missed: said again (or answering "Any allergies?"),
        # it is saved, and the dedup judge merges it into the record if there is one.
        return False
    words = content_words(text)
    # "Right, so we're going with the blue one." A reply whose every word was just said repeats
    # it, whatever kind of statement it is.
    echoed = content_words(_ECHO_WEAK.sub(" ", text)) <= content_words(" ".join(others))
    if _ECHO_WEAK.search(text) and not new_numbers and len(words) >= 2 and echoed:
        return True
    if new_numbers or any(k in SAVE_REASONS for k in kinds):
        return False
    sim = max(similarity(text, others), default=0.0) if similarity else None
    if _ECHO_WEAK.search(text) and len(content_words(text)) >= 2:  # "Yes, thanks!" is no echo
        return sim is None or sim >= CUED_ECHO_SIM
    if sim is not None:
        return sim >= ECHO_SIM
    return bool(words) and len(words & content_words(" ".join(others))) / len(words) >= LEXICAL_ECHO


def _is_self_rule_lesson(sents: list[str], kinds: list[str]) -> bool:
    rules = [
        i for i, k in enumerate(kinds) if k == "stable_preference" and _SELF_RULE.search(sents[i])
    ]
    # the mishap may be another sentence or a clause after the rule ("Never X; we got caught")
    mishaps = [s for i, s in enumerate(sents) if i not in rules]
    mishaps += [
        re.split(r"[;:]", sents[i], maxsplit=1)[-1] for i in rules if re.search("[;:]", sents[i])
    ]
    return bool(rules) and any(_PAST.search(s) for s in mishaps)


def _judge(
    text: str, role: str, recent: Sequence[str], similarity: Similarity | None
) -> tuple[PolicyVerdict, list[str]]:
    role = role.lower()
    sents = sentences(text)
    kinds = [sentence_kind(s, role) for s in sents]
    if not sents:
        return PolicyVerdict(False, None, "meta_chatter"), kinds
    if is_already_in_history(text, recent, role):
        return PolicyVerdict(False, None, "already_in_history"), kinds
    if _is_restatement(text, role, kinds, recent, similarity):
        return PolicyVerdict(False, None, "restatement"), kinds
    for reason, category in SAVE_REASONS.items():
        if reason in kinds:
            rule = reason in ("stable_preference", "decision_with_why")
            if rule and _is_self_rule_lesson(sents, kinds):
                return PolicyVerdict(True, "lesson", "hard_lesson"), kinds
            return PolicyVerdict(True, category, reason), kinds
    # With no explicit durable marker a hedge beats plain statements ("I might be allergic?
    # I felt weird after the paella.") and a greeting beats the small talk after it.
    # A belief frame ("I think the dog is about nine now") hedges its own sentence only: a
    # concrete fact said beside it without a hedge still saves.
    hedges = [s for k, s in zip(kinds, sents, strict=True) if k == "hedge"]
    if hedges and not ("fact" in kinds and all(is_belief_only(s) for s in hedges)):
        return PolicyVerdict(False, None, "speculation"), kinds
    if kinds[0] == "greeting" and "fact" not in kinds:
        return PolicyVerdict(False, None, "greeting"), kinds
    if "fact" in kinds or any(
        k == "plain" and len(s.split()) >= 5 for k, s in zip(kinds, sents, strict=True)
    ):
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
) -> PolicyVerdict:
    """Save or skip one chat turn, given up to three earlier turns ("user: ..." strings).
    similarity(text, others) -> cosines is used for restatements; else lexical overlap."""
    return _judge(text, role, recent, similarity)[0]


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


def skip_reason_for_item(
    context: str,
    recent_texts: Sequence[str] = (),
    similarity: Similarity | None = None,
    category: str = "",
) -> str | None:
    """Why a memory item's one-line text should not be saved, or None to save it. Items are
    terse ("Allergic to kiwi."), so unlike a turn a short plain line is kept, not chatter. An
    item whose category is an episode or a session summary is history, never memory."""
    if category and history_category(category):
        return "already_in_history"
    verdict, kinds = _judge(context, "user", recent_texts, similarity)
    if verdict.save:
        return None
    if verdict.reason == "meta_chatter" and not any(k in _SKIP_KINDS for k in kinds):
        return None
    return verdict.reason


def evaluate(
    cases: Iterable[Mapping[str, Any]], similarity: Similarity | None = None
) -> dict[str, Any]:
    """Score judge_turn on labelled cases in the policy_dev.jsonl format."""
    tp = {"save": 0, "skip": 0}
    predicted = {"save": 0, "skip": 0}
    gold_n = {"save": 0, "skip": 0}
    cat_n = cat_ok = 0
    misses: list[str] = []
    for case in cases:
        turn = case["turn"]
        v = judge_turn(turn["text"], turn["role"], case.get("recent", []), similarity=similarity)
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
