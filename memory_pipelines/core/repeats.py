"""Turns that repeat or paraphrase what was just said (`is_restatement`); what the chat already
holds as history (recaps, re-pastes, quotes) is core/in_history.py. Used by the save policy
(core/policy.py). Pure Python; an embedding similarity may be passed in."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from memory_pipelines.core.health_safety import SAFETY
from memory_pipelines.core.in_history import strip_role
from memory_pipelines.core.patterns import rx as _rx
from memory_pipelines.core.promises import promise
from memory_pipelines.core.sentence_kinds import (
    ADDITIVE,
    DEADLINE,
    SAVE_KINDS,
    content_words,
    sentence_kind,
    sentences,
)

Similarity = Callable[[str, Sequence[str]], list[float]]

# Cut-offs for all-MiniLM-L6-v2: paraphrases of a recent turn sit above 0.7, while a turn that
# opens like a reply ("Yeah, ...") only has to be on the same topic.
ECHO_SIM = 0.7
CUED_ECHO_SIM = 0.4
LEXICAL_ECHO = 0.5  # share of content words already in recent turns, when there is no embedder
RESTATED_SHARE = 2 / 3  # share of a durable turn's content words in earlier statements


_ECHO_STRONG = _rx(
    r"\bwhat you're saying\b|\bso you mean\b|\bif i understand\b|\bwhat i said\b|"
    r"\b(?:like|as) i (?:said|mentioned)\b|\bto be clear\b|\bin other words\b|\bas mentioned\b|"
    r"\bgot it\W*$|\bthat's the gist\b|\bin a nutshell\b|\b(?:right|correct|is that right)\?$"
)
# A reply cue: an opener ("Yeah, ...", "So ...", a degree answering a yes/no question: "Very!",
# "Totally.") or a closing confirmation tag ("7:10, right.").
_ECHO_WEAK = _rx(
    r"^\W*(?:yeah|yep|yes|so|basically|right|exactly|i mean)\b|"
    r"^\W*(?:very|totally|definitely|absolutely|hugely|massively|super|so much)\W*[!.,]|"
    r",\s*(?:right|correct|yes|yeah|yep|ok(?:ay)?)\W*$"
)
# Acknowledgements and assessments around words just said: an opener ("OK, so ...", "Cool,
# ...", "Just to confirm: ..."), an assessment or a pointer back anywhere ("..., makes sense",
# "as you said") or a closing tag ("3:20, nice."). A closed class of backchannel words: a turn
# made of them and of words the recent statements hold says nothing new.
_ACK = _rx(
    r"^\W*(?:yeah|yep|yes|so|basically|right|exactly|i mean|ok(?:ay)?|alright|cool|great|"
    r"awesome|perfect|nice|sure|fine|got it|understood|sounds good)\b|"
    r"\b(?:just )?to confirm\b|\bmakes (?:total |good |more )?sense\b|"
    r"\bas (?:you|we) (?:said|suggested|agreed|put it)\b|\bsounds (?:good|right|fair)\b|"
    r",\s*(?:right|correct|yes|yeah|yep|ok(?:ay)?|nice|great|cool|perfect|got it)\W*$"
)
# The assistant acknowledging what it was told: an ack, an assessment of the user's choice
# ("Greenway makes sense, since ..."), or the user's words given as its reason ("Since you work
# nights, I'll ...").
_ASSISTANT_ACK = _rx(
    r"^\W*(?:noted|got it|understood|ok(?:ay)?|will do|gotcha|of course|sure|right|makes sense|"
    r"sounds like|so you|(?:so,? )?(?:just )?to confirm)\b|\bnoted\b|"
    r"^\W*(?:\w+\W+){0,3}?(?:makes (?:total |good )?sense|"
    r"(?:(?:is|was|'s) (?:a )?|(?:sounds|seems) like (?:a )?)"
    r"(?:good|great|sensible|smart|wise) (?:choice|call|idea|plan|pick|move)|"
    r"(?:sounds|seems) (?:good|great|right|sensible|wise))\b|"
    r"^\W*(?:since|as|given(?: that)?|because) you(?:'re|'ve|'d| \w+)"
)
# The assistant congratulating the user on news just told: the outcome is theirs, said again.
_SOME_DAY = datetime(2000, 1, 3, tzinfo=UTC)  # whether a promise is made, not when it is due


def makes_promise(text: str, speaker: str, timed: bool = False) -> bool:
    """Whether a sentence of the text promises something to somebody (core/promises.py);
    `timed`: by a time it says ("I'll remind you tomorrow morning", not "I'll use your name")."""
    made = (promise(s, speaker, "you", _SOME_DAY) for s in sentences(text))
    return any(p is not None and (p.due_at is not None or not timed) for p in made)


_CONGRATS = _rx(r"^\W*(?:congrat\w*|well done|great news|what a (?:result|win|relief))\b")


def _numbers(text: str) -> set[str]:
    """The numbers of text, as values: "£2k" and "£2,000" are one number."""
    found = set()
    for m in re.finditer(r"(\d+(?:[.,]\d+)*)(?:(k)\b)?", text, re.IGNORECASE):
        digits, thousands = m.group(1), bool(m.group(2))
        if thousands or re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", digits):
            value = float(digits.replace(",", "")) * (1000 if thousands else 1)
            found.add(f"{value:.15g}")
        else:
            found.add(digits)
    return found


def _statements(recent: Sequence[str]) -> list[tuple[str, str]]:
    """The sentences of recent turns that state something, with their kinds: no questions,
    hedges or talk about the chat."""
    said = []
    for line in recent:
        role, _, body = line.partition(":")
        role = role.strip().lower() if body else "user"
        for sent in sentences(body or line):
            kind = sentence_kind(sent, role)
            if not sent.endswith("?") and kind not in ("hedge", "meta", "ack", "greeting"):
                said.append((sent, kind))
    return said


def _found_among(said: set[str]) -> Callable[[str], bool]:
    """Whether a word is found among said, or matches a word of said that it starts or that
    starts it ("gluten" / "gluten-free", "deploy" / "deployed") when both have four letters or
    more. Looked up in sets of prefixes: scanning said for each word was quadratic (a third of
    a million comparisons over LoCoMo)."""
    starts = {o[:k] for o in said for k in range(_STEM, len(o) + 1)}  # said words' prefixes

    def found(w: str) -> bool:
        if w in said:
            return True
        if len(w) < _STEM:
            return False
        return w in starts or any(w[:k] in said for k in range(_STEM, len(w) + 1))

    return found


_STEM = 4  # letters two words need to match by one starting the other


def _share_said(words: set[str], found: Callable[[str], bool]) -> float:
    """Share of words `found` (_found_among) finds."""
    return sum(map(found, words)) / len(words) if words else 0.0


# A rule for the future is one statement, told as a lesson or as a preference ("Lesson learnt,
# always keep a spare charger in the car" / "So yes, spare charger in the car from now on. Never
# again."); the words that mark it as a rule are no content of their own.
_RULE_KINDS = {"hard_lesson": "rule", "stable_preference": "rule"}
_RULE_WORDS = frozenset(
    ["always", "never", "again", "lesson", "learnt", "learned", "future", "rule"]
)


def _restates_durable(
    text: str, kinds: list[str], recent: Sequence[str], similarity: Similarity | None
) -> bool:
    """A durable statement made again: the same kinds of statement (a promise again, a health
    fact again) were just stated, not asked, and hold most of its words ("As promised, the quote
    will be with you by 4pm" after "I'll send you the quote by 4pm")."""
    durable = {_RULE_KINDS.get(k, k) for k in kinds if k in SAVE_KINDS or k == "fact"}
    said = _statements(recent)
    if not durable or not durable <= {_RULE_KINDS.get(k, k) for _, k in said}:
        return False  # a fulfilled promise is news: "The fix is deployed" after "I'll deploy"
    words = content_words(_ACK.sub(" ", text)) - _RULE_WORDS  # "Right, ...": no content
    said_words = content_words(" ".join(s for s, _ in said)) - _RULE_WORDS
    found = _found_among(said_words)
    if _share_said(words, found) < RESTATED_SHARE:
        return False
    fresh = [w for w in words if not found(w)]
    if any(re.search(rf"\b(?:and|or|&)\s+(?:\w+\s+)?{re.escape(w)}\b", text, re.I) for w in fresh):
        return False  # a list made longer: "peanuts and shellfish" after "peanuts"
    # A reply that opens or closes as one ("yep, Friday, promised.") only has to be on topic.
    floor = CUED_ECHO_SIM if _ACK.search(text) else ECHO_SIM
    return similarity is None or max(similarity(text, [s for s, _ in said])) >= floor


def is_restatement(
    text: str,
    role: str,
    kinds: list[str],
    recent: Sequence[str],
    similarity: Similarity | None,
    *,
    item: bool = False,
) -> bool:
    """Whether text repeats or paraphrases what recent turns said. A turn that states a durable
    fact again (a promise, a health fact) repeats it; a memory item that does is kept
    (item=True): it may be the first record of it, and the dedup judge merges it into the record
    if there is one."""
    if not recent or ADDITIVE.search(text):
        return False  # "and amoxicillin too": a restatement that adds a detail is a save
    if _ECHO_STRONG.search(text):
        return True
    if all(k in ("meta", "greeting", "hedge") for k in kinds):
        return False  # a skip with its own, more specific reason
    others = [strip_role(r) for r in recent]
    new_numbers = _numbers(text) - _numbers(" ".join(others))
    new_deadline = bool(DEADLINE.search(text)) and not any(DEADLINE.search(o) for o in others)
    if role == "assistant" and _CONGRATS.search(text) and not (new_numbers or new_deadline):
        return True  # "Congratulations! A finished kitchen, £2,000 under budget": their news
    if role == "assistant" and _ASSISTANT_ACK.search(text) and not (new_numbers or new_deadline):
        # "Noted: no chicken bones for Luna." The assistant only confirms what it was told.
        # ... but a promise to somebody made in the reply ("Sure, I'll send you my notes by
        # Tuesday") is new; "Sure, I'll do that" owes nobody anything said.
        return not any(k in ("hard_lesson", "shipped_outcome") for k in kinds) and not (
            makes_promise(text, "assistant")
        )
    fresh = not (new_numbers or new_deadline)
    if fresh and not item and _restates_durable(text, kinds, recent, similarity):
        return True
    if SAFETY.search(text):
        # A health or safety fact is never missed: answering "Any allergies?", with a new
        # detail, or as an item, it is saved, and the dedup judge merges it into the record.
        return False
    words = content_words(text)
    # "Right, so we're going with the blue one." A reply whose every word was just said repeats
    # it, whatever kind of statement it is.
    # Words of a question are not said: "Yes, always metric" answers "Always metric?" with a save.
    stated = [s for o in others for s in sentences(o) if not s.endswith("?")]
    # "Yeah, blue-green because of the schema clash, makes sense": acknowledgements around
    # words every one of which was just said.
    echoed = content_words(_ACK.sub(" ", text)) <= content_words(" ".join(stated))
    if _ACK.search(text) and not new_numbers and len(words) >= 2 and echoed:
        return True
    if new_numbers or any(k in SAVE_KINDS for k in kinds):
        return False
    # An answer to a question restates nothing: only what was stated can be said again.
    sim = (max(similarity(text, stated)) if stated else 0.0) if similarity else None
    if _ECHO_WEAK.search(text) and len(content_words(text)) >= 2:  # "Yes, thanks!" is no echo
        return sim is None or sim >= CUED_ECHO_SIM
    if sim is not None:
        return sim >= ECHO_SIM
    return bool(words) and len(words & content_words(" ".join(others))) / len(words) >= LEXICAL_ECHO
