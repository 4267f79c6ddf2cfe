"""Statement analysis for the dedup judge: who an item is about, and what it says.

Memory items are one-line notes ("Lives in Leeds", "Sister Mia lives in Cork", "Standup now
starts at 10:00"). `analyse()` turns one into an `Analysis`: its subject (the user, a relative, a
pet or a name), its predicate, and what `judge_values` (typed values) and `judge_cues` (change
cues, frames, old values) read in it; `judge_pairs.compare()` sets a candidate beside one stored
item. Pure string work over the general English of `judge_lexicon`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from memory_pipelines.core.corrections import correction
from memory_pipelines.core.judge_cues import NEW_SLOT, OLD_VALUE, change_cues, negated_verbs
from memory_pipelines.core.judge_frames import FRAME_RES
from memory_pipelines.core.judge_lexicon import (
    LEADING_ADVERBS,
    PREPOSITIONS,
    SENTENCE_VERBS,
    WORD_RX,
    bare,
    content_stems,
    words,
)
from memory_pipelines.core.judge_modes import (
    ADDITIVE,
    CONDITION,
    EXCEPTION,
    HEDGE,
    PLAN,
    TENTATIVE,
    preference_pair,
)
from memory_pipelines.core.judge_reported import as_reported
from memory_pipelines.core.judge_stance import contrast_pair
from memory_pipelines.core.judge_subjects import (
    apposition,
    entity_key,
    existence_subjects,
    is_acronym,
    is_relation,
    name_kind,
    subject_span,
)
from memory_pipelines.core.judge_values import read_values

SaidOn = tuple[int, int] | None


@dataclass(frozen=True)
class Analysis:
    """What the judge needs to know about one item's sentence."""

    text: str
    tokens: tuple[str, ...]  # lower-cased surface words, possessive 's removed
    stems: frozenset[str]
    subject: frozenset[str]  # who/what the item is about ('user' when it opens with a verb)
    subject_is_person: bool  # the subject is the user, a relative, a pet or a sure name
    subject_stems: frozenset[str]  # content stems of the grammatical subject
    possessed: bool  # the subject is something of someone's ("Partner's surname")
    owners: frozenset[str]  # whose it is, when possessed ("Gabe's GP": gabe)
    # the relatives whose the subject is ("Partner's sister": partner); a name may be the
    # user's own ("Ana's API gateway", said by Ana), so names are left to `owners`
    held_by: frozenset[str]
    predicate_stems: frozenset[str]  # content stems after the subject
    # ... of a clause of condition ("until it is retired"): not what the item states
    conditional: frozenset[str]
    entities: frozenset[str]  # every person, pet or proper name mentioned
    names: frozenset[str]  # capitalised value words (products, places, people), no acronyms
    values: dict[str, frozenset[str]] = field(hash=False)
    cues: frozenset[str] = frozenset()
    slot_words: frozenset[str] = frozenset()  # "a new manager": the slot that changed
    old_words: frozenset[str] = frozenset()  # "from X", "stopped X": the old value
    negated: frozenset[str] = frozenset()  # verbs under a negation
    frames: frozenset[str] = frozenset()
    preference: tuple[frozenset[str], frozenset[str]] | None = None  # (preferred, over)
    contrast: tuple[frozenset[str], frozenset[str]] | None = None  # "X, not Y": (X, Y)
    existence: bool = False  # "Has a teenage daughter": says only that someone exists
    tentative: bool = False
    planned: bool = False  # a plan or an open choice, not yet a settled fact
    ongoing: bool = False  # a process under way: it opens with a verb in -ing ("Applying for")
    hedged: bool = False  # an inference ("probably", "seems to"), not a statement
    exception: bool = False
    additive: bool = False
    # (kind, value) pairs read from another form: words, other units, a relative phrase
    derived: frozenset[tuple[str, str, str]] = frozenset()  # (kind, value, form as written)


def _phrase_stems(rx: re.Pattern[str], text: str) -> frozenset[str]:
    out: set[str] = set()
    for m in rx.finditer(text):
        for grp in m.groups():
            if grp:
                out |= content_stems(words(grp))
    return frozenset(out)


def analyse(
    text: str,
    lowercase_vocab: frozenset[str] = frozenset(),
    said_on: SaidOn = None,
    case_names: frozenset[str] = frozenset(),
) -> Analysis:
    """Parse one item; `lowercase_vocab` holds words seen in lower case elsewhere in the case,
    `case_names` words capitalised inside a sentence there (names), `said_on` (year, month)
    when it was said, for phrases like "last year" (None: unknown)."""
    matches = list(WORD_RX.finditer(text))
    toks = [m.group() for m in matches]
    # Punctuation right after a token ends a subject ("Subscriptions: Netflix, ...").
    breaks = [ch if (ch := text[m.end() : m.end() + 1]) in (":", ";", ",") else "" for m in matches]
    entities: set[str] = set()
    names: set[str] = set()
    sure: set[str] = set()
    for i, tok in enumerate(toks):
        key = entity_key(tok)
        kind = None if key else name_kind(toks, i, lowercase_vocab, case_names)
        if key:
            entities.add(key)
        elif kind:
            low = bare(tok).lower()
            entities.add(low)
            if kind == "sure":
                sure.add(low)
            if not is_acronym(tok):
                names.add(low)

    lead = 0
    while lead < len(toks) - 1 and toks[lead].lower() in LEADING_ADVERBS:
        lead += 1
    body = toks[lead:]
    split, verbless = subject_span(body, breaks[lead:])
    # "Rosa, the partner, eats a vegan diet": the name and its role are the subject.
    named_role = apposition(body, breaks[lead:])
    if named_role:
        split, verbless = named_role, False
        entities.add(bare(body[0]).lower())
        sure.add(bare(body[0]).lower())
        names.add(bare(body[0]).lower())
    subject: set[str] = set()
    for tok in body[:split]:
        if tok.lower() in PREPOSITIONS:
            break  # "Designer at Lumen Health": a name after a preposition is no subject
        low = bare(tok).lower()
        key = entity_key(tok)
        if key or low in entities:
            subject.add(key or low)
    # "User's flatmate Ollie works from home": the user owns the subject, which is Ollie.
    owners = {entity_key(t) or bare(t).lower() for t in body[: max(split - 1, 0)] if bare(t) != t}
    if owners == {"user"}:
        subject.discard("user")
        # "User's own wedding anniversary ...": nobody else is named, the thing is the user's.
        if not subject:
            subject.add("user")
    # "Partner's sister is vegan": the sister, someone of the partner's, not the partner.
    elif owners and subject - owners and all(map(is_relation, subject - owners)):
        subject -= owners
    if verbless and not subject:
        split = 0  # "Vegan for five years now": a verbless note about the user
    if split == 0:
        subject.add("user")
    # "Own passport expires in March 2027", "My own will is held by ...": the user's own thing,
    # set beside someone else's.
    opening = [t.lower() for t in body[:2]]
    if opening[:1] == ["own"] or opening == ["my", "own"]:
        subject.add("user")
    # "The appointment is March 10, not March 3": March 3 is the old value, not one it holds.
    fix = correction(text)
    said = text if fix is None else text[: fix.span[0]] + text[fix.span[1] :]
    values, derived = read_values(said, said_on)
    existence: set[str] = set()
    if subject <= {"user"} and (split == 0 or subject):
        existence = existence_subjects(body)
        subject |= existence
    return Analysis(
        text=text,
        tokens=tuple(bare(t).lower() for t in toks),
        stems=content_stems(toks),
        subject=frozenset(subject),
        subject_is_person=any(x == "user" or x in sure or is_relation(x) for x in subject),
        subject_stems=content_stems(body[:split]),
        possessed=any(bare(t) != t for t in body[: max(split - 1, 0)]),
        owners=_named_owners(body[: max(split - 1, 0)], lead, case_names),
        held_by=frozenset(o for o in owners if is_relation(o)),
        predicate_stems=content_stems(body[split:]),
        conditional=content_stems(w for m in CONDITION.finditer(text) for w in words(m.group())),
        entities=frozenset(entities),
        names=frozenset(names),
        values=values,
        derived=derived,
        cues=change_cues(text) | ({"corrected"} if fix else set()),
        slot_words=_phrase_stems(NEW_SLOT, text),
        old_words=_phrase_stems(OLD_VALUE, text)
        | (content_stems(words(fix.old)) if fix else frozenset()),
        negated=negated_verbs(text),
        frames=frozenset(name for name, rx in FRAME_RES if rx.search(text)),
        preference=preference_pair(text),
        contrast=contrast_pair(text),
        existence=bool(existence),
        tentative=bool(TENTATIVE.search(text)),
        planned=bool(PLAN.search(text)),
        ongoing=_ongoing(body, split),
        hedged=bool(HEDGE.search(text)),
        exception=bool(EXCEPTION.search(text)),
        additive=bool(ADDITIVE.search(text)),
    )


def _named_owners(before: list[str], lead: int, case_names: frozenset[str]) -> frozenset[str]:
    """Capitalised possessives in the subject ("Gabe's GP": gabe). A first word's capital says
    nothing ("Team's languages"), unless the case writes it inside a sentence too."""
    return frozenset(
        bare(t).lower()
        for i, t in enumerate(before)
        if bare(t) != t and t[:1].isupper() and (i + lead > 0 or bare(t).lower() in case_names)
    )


# ... and so does an application ("Applied to Edinburgh and UCL, deadline is April")
_AWAITING = re.compile(
    r"\b(?:waiting (?:for|on)|awaiting|pending|under review|(?:has |have )?applied (?:to|for))\b"
)


def _ongoing(body: list[str], split: int) -> bool:
    """A process under way: the item opens with a verb in -ing ("Applying for a visa"), or its
    verb is a present progressive ("Son Leo is doing A-levels"), a listed verb, not "going to"."""
    lows = [t.lower() for t in body]
    if split == 0 and lows and lows[0].endswith("ing"):
        return True
    # "Applied for settled status, waiting for a decision", "legal review pending": what was
    # started awaits its outcome.
    if _AWAITING.search(" ".join(lows)):
        return True
    for i in range(split, len(lows) - 1):
        if lows[i] in ("is", "are", "am") and lows[i + 1].endswith("ing"):
            verb = lows[i + 1]
            return verb in SENTENCE_VERBS and verb != "going"
    return False


def lowercase_vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """Words that appear in lower case somewhere in the texts (so they are not names)."""
    return frozenset().union(*(_lowercase_words(text) for text in texts))


@lru_cache(maxsize=16384)
def _lowercase_words(text: str) -> frozenset[str]:
    return frozenset(tok.lower() for tok in words(text) if tok[:1].islower())


def case_names(texts: Iterable[str]) -> frozenset[str]:
    """Words capitalised inside a sentence somewhere in the texts (names, lower-cased)."""
    return frozenset().union(*(_inner_capitals(text) for text in texts))


@lru_cache(maxsize=16384)
def _inner_capitals(text: str) -> frozenset[str]:
    toks = words(text)
    return frozenset(
        bare(tok).lower()
        for i, tok in enumerate(toks)
        if i > 0
        and tok[:1].isupper()
        and not is_acronym(tok)
        and text[: text.find(tok)].rstrip()[-1:] not in ".!?"
    )


def analyse_in_case(
    text: str,
    lowercase_vocab: frozenset[str],
    said_on: SaidOn = None,
    names: frozenset[str] = frozenset(),
) -> Analysis:
    """analyse(text, lowercase_vocab, said_on, names), cached: dedup shows the same stored
    items again and again. The vocabularies only decide whether a capitalised first word is a
    name, so the cache key is the text, whether its first word is in each, and `said_on`.
    A change someone made to a named person's thing is read as that thing's change
    (core/judge_reported.py)."""
    text = as_reported(text)
    first = WORD_RX.search(text)
    low = first.group().lower() if first else ""
    # "Gabe's GP ...": a possessive opener is named if its bare word is.
    return _analyse_cached(text, low in lowercase_vocab, said_on, bare(low) in names)


def said_on(valid_from: str | None) -> SaidOn:
    """(year, month) of an ISO date or timestamp, None when it is missing or unreadable."""
    m = re.match(r"(\d{4})-(\d{2})", valid_from or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


@lru_cache(maxsize=16384)
def _analyse_cached(
    text: str, first_word_common: bool, said: SaidOn, first_word_named: bool = False
) -> Analysis:
    first = WORD_RX.search(text)
    low = frozenset({first.group().lower()}) if first else frozenset()
    vocab = low if first_word_common else frozenset()
    named = low | {bare(w) for w in low}
    return analyse(text, vocab, said, named if first_word_named else frozenset())
