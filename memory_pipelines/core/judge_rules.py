"""Statement analysis for the dedup judge: who an item is about, and what it says.

Memory items are one-line notes ("Lives in Leeds", "Sister Mia lives in Cork", "Standup now
starts at 10:00"). `analyse()` turns one into an `Analysis`: its subject (the user, a relative, a
pet or a name), its predicate, and what `judge_values` (typed values) and `judge_cues` (change
cues, frames, old values) read in it; `judge_pairs.compare()` sets a candidate beside one stored
item. Pure string work over the general English of `judge_lexicon`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from memory_pipelines.core.corrections import correction
from memory_pipelines.core.judge_cues import (
    ADDITIVE,
    EXCEPTION,
    FRAME_RES,
    HEDGE,
    NEW_SLOT,
    OLD_VALUE,
    PLAN,
    TENTATIVE,
    change_cues,
    negated_verbs,
    preference_pair,
)
from memory_pipelines.core.judge_lexicon import (
    AUX,
    CLAUSE_BREAKS,
    DETERMINERS,
    IN_LAW,
    IRREGULAR,
    LEADING_ADVERBS,
    MONTHS,
    PREPOSITIONS,
    RELATION_KEYS,
    RELATIONS,
    SENTENCE_VERBS,
    STOPWORDS,
    WEEKDAYS,
    WORD_RX,
    bare,
    content_stems,
    words,
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
    predicate_stems: frozenset[str]  # content stems after the subject
    entities: frozenset[str]  # every person, pet or proper name mentioned
    names: frozenset[str]  # capitalised value words (products, places, people), no acronyms
    values: dict[str, frozenset[str]] = field(hash=False)
    cues: frozenset[str] = frozenset()
    slot_words: frozenset[str] = frozenset()  # "a new manager": the slot that changed
    old_words: frozenset[str] = frozenset()  # "from X", "stopped X": the old value
    negated: frozenset[str] = frozenset()  # verbs under a negation
    frames: frozenset[str] = frozenset()
    preference: tuple[frozenset[str], frozenset[str]] | None = None  # (preferred, over)
    existence: bool = False  # "Has a teenage daughter": says only that someone exists
    tentative: bool = False
    planned: bool = False  # a plan or an open choice, not yet a settled fact
    hedged: bool = False  # an inference ("probably", "seems to"), not a statement
    exception: bool = False
    additive: bool = False
    # (kind, value) pairs read from another form: words, other units, a relative phrase
    derived: frozenset[tuple[str, str]] = frozenset()


def _is_verbish(low: str) -> bool:
    return low in SENTENCE_VERBS or low in AUX


def _is_finite_verb(low: str) -> bool:
    """A verb form that follows a subject: 'is', 'owns', 'moved', 'grew' (not 'order')."""
    if low in AUX or low in IRREGULAR:
        return True
    return low in SENTENCE_VERBS and low.endswith(("s", "ed"))


def _entity_key(tok: str) -> str | None:
    low = bare(tok).lower()
    if low in RELATIONS:
        return RELATIONS[low]
    if low.endswith("s") and low[:-1] in RELATIONS:  # "friends", "cousins"
        return RELATIONS[low[:-1]]
    if IN_LAW.match(low):
        return low
    return "user" if low == "user" else None


def is_relation(key: str) -> bool:
    return key in RELATION_KEYS or bool(IN_LAW.match(key))


def _capitalised(tok: str) -> bool:
    plain = bare(tok)
    low = plain.lower()
    if not plain[:1].isupper() and not re.search(r"[a-z][A-Z]", plain):
        return False
    return not (
        low in MONTHS
        or low.rstrip("s") in WEEKDAYS
        or low in STOPWORDS
        or low in RELATIONS
        or low in LEADING_ADVERBS
    )


def _name_kind(toks: Sequence[str], i: int, lowercase_vocab: frozenset[str]) -> str | None:
    """'sure' for a proper name, 'guess' for a capitalised opener that may be one, else None.

    Mid-sentence capitals and possessives are names. A capitalised first word is only a guess
    ("Marco owns ..." vs "Thesis is due ..."), and none at all if the word also appears in lower
    case in the case's other items ("Rent goes up" beside "pays rent").
    """
    tok = toks[i]
    if not _capitalised(tok):
        return None
    if i > 0 or bare(tok) != tok:
        return "sure"
    low = tok.lower()
    if low in SENTENCE_VERBS or low in AUX or low in lowercase_vocab:
        return None
    return "guess" if i + 1 < len(toks) and _is_finite_verb(toks[i + 1].lower()) else None


def _is_acronym(tok: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{2,6}s?", tok))


def _phrase_stems(rx: re.Pattern[str], text: str) -> frozenset[str]:
    out: set[str] = set()
    for m in rx.finditer(text):
        for grp in m.groups():
            if grp:
                out |= content_stems(words(grp))
    return frozenset(out)


def _opens_with_verb(toks: Sequence[str], lows: Sequence[str], breaks: Sequence[str]) -> bool:
    if not lows or _entity_key(toks[0]) is not None:
        return False
    verb = (
        _is_verbish(lows[0])
        or (lows[0].endswith("ed") and lows[0].isalpha())
        # An unknown "-ing" opener before an article or a name is a verb ("Comparing Hetzner
        # and ..."); before a plain noun it is usually a noun ("Wedding date is ...").
        or (
            lows[0].endswith("ing")
            and len(toks) > 1
            and (lows[1] in DETERMINERS or toks[1][:1].isupper())
        )
        # An unknown "-s" opener before a preposition or an article ("Trades as ...").
        or (
            len(toks) > 1
            and lows[0].isalpha()
            and lows[0].endswith("s")
            and not lows[0].endswith(("ss", "us", "is"))
            and (lows[1] in PREPOSITIONS or lows[1] in DETERMINERS or lows[1] == "as")
            and not breaks[0]
        )
    )
    if verb and lows[0] not in AUX:
        # "Rent is ...", "Orders service owns ...": a noun that a present-tense verb follows.
        for j in (1, 2):
            nxt = lows[j] if j < len(lows) and not any(breaks[:j]) else ""
            if nxt in AUX or (nxt.endswith("s") and nxt in SENTENCE_VERBS):
                return False
    return verb


def _verb_after_subject(low: str, prev: str) -> bool:
    """Is this the verb that follows a subject? 'owns', 'moved', 'grew'; a bare 'stay' only
    after a plural ("the kids stay"), so 'review' in "Security review for ..." stays a noun."""
    if _is_finite_verb(low) or (low.endswith("ed") and low.isalpha()):
        return True
    return low in SENTENCE_VERBS and prev.endswith("s") and not prev.endswith(("'s", "ss"))


def _subject_span(toks: Sequence[str], breaks: Sequence[str]) -> tuple[int, bool]:
    """Where the grammatical subject ends, and whether no verb ended it.

    0 means the item opens with a verb, so its subject is the user ("Lives in Leeds"). A clause
    without any verb ("Night owl; ...", "Vegan for five years") is about the user as well.
    """
    lows = [t.lower() for t in toks]
    if _opens_with_verb(toks, lows, breaks):
        return 0, False
    for i in range(1, len(toks)):
        low = lows[i]
        if breaks[i - 1]:
            return i, breaks[i - 1] != ":"  # "Subscriptions: ..." names its slot
        if low in AUX:
            return i, False
        if low in CLAUSE_BREAKS:
            return i, True  # "Vegetarian after years of ...": no verb before the clause
        # "Migraines usually start ...": an adverb between subject and verb is looked past.
        j = i - 1
        while j > 0 and lows[j] in LEADING_ADVERBS:
            j -= 1
        if _entity_key(toks[i]) is None and _verb_after_subject(low, lows[j]):
            return i, False
        if _unknown_verb(toks, lows, i):
            return i, False
    return len(toks), True


def _unknown_verb(toks: Sequence[str], lows: Sequence[str], i: int) -> bool:
    """A word that no list knows, inflected like a verb and followed by what follows a verb
    ("Choir rehearses on Wednesdays", "Boiler needs a service"): a singular subject's verb."""
    low, prev = lows[i], lows[i - 1]
    if low in STOPWORDS or not low.isalpha() or toks[i][:1].isupper():
        return False
    if not (low.endswith("s") and not low.endswith(("ss", "us", "is"))):
        return False
    if prev.endswith("s") or _entity_key(toks[i]) is not None:
        return False  # "Orders service", "Kids stay": plural nouns run together
    nxt = lows[i + 1] if i + 1 < len(lows) else ""
    return nxt in PREPOSITIONS or nxt in DETERMINERS


def _existence_subjects(body: Sequence[str]) -> set[str]:
    """'Has a cat called Tofu', 'User has a teenage daughter': the item is about that pet or
    relative (and its name), not just about the user."""
    m = re.match(
        r"(?:user\s+)?(?:has|have|got|adopted|owns)\s+(?:a|an|two|three)\s+(.*)",
        " ".join(body),
        re.IGNORECASE,
    )
    rest = words(m.group(1)) if m else []
    for i, tok in enumerate(rest[:4]):
        key = _entity_key(tok)
        if key:
            return {"user", key} | {r.lower() for r in rest[i + 1 : i + 3] if r[:1].isupper()}
    return set()


def analyse(
    text: str, lowercase_vocab: frozenset[str] = frozenset(), said_on: SaidOn = None
) -> Analysis:
    """Parse one item; `lowercase_vocab` holds words seen in lower case elsewhere in the case,
    `said_on` (year, month) when it was said, for phrases like "last year" (None: unknown)."""
    matches = list(WORD_RX.finditer(text))
    toks = [m.group() for m in matches]
    # Punctuation right after a token ends a subject ("Subscriptions: Netflix, ...").
    breaks = [ch if (ch := text[m.end() : m.end() + 1]) in (":", ";", ",") else "" for m in matches]
    entities: set[str] = set()
    names: set[str] = set()
    sure: set[str] = set()
    for i, tok in enumerate(toks):
        key = _entity_key(tok)
        kind = None if key else _name_kind(toks, i, lowercase_vocab)
        if key:
            entities.add(key)
        elif kind:
            low = bare(tok).lower()
            entities.add(low)
            if kind == "sure":
                sure.add(low)
            if not _is_acronym(tok):
                names.add(low)

    lead = 0
    while lead < len(toks) - 1 and toks[lead].lower() in LEADING_ADVERBS:
        lead += 1
    body = toks[lead:]
    split, verbless = _subject_span(body, breaks[lead:])
    subject: set[str] = set()
    for tok in body[:split]:
        if tok.lower() in PREPOSITIONS:
            break  # "Designer at Lumen Health": a name after a preposition is no subject
        low = bare(tok).lower()
        key = _entity_key(tok)
        if key or low in entities:
            subject.add(key or low)
    if verbless and not subject:
        split = 0  # "Vegan for five years now": a verbless note about the user
    if split == 0:
        subject.add("user")
    # "The appointment is March 10, not March 3": March 3 is the old value, not one it holds.
    fix = correction(text)
    said = text if fix is None else text[: fix.span[0]] + text[fix.span[1] :]
    values, derived = read_values(said, said_on)
    existence: set[str] = set()
    if subject <= {"user"} and (split == 0 or subject):
        existence = _existence_subjects(body)
        subject |= existence
    return Analysis(
        text=text,
        tokens=tuple(bare(t).lower() for t in toks),
        stems=content_stems(toks),
        subject=frozenset(subject),
        subject_is_person=any(x == "user" or x in sure or is_relation(x) for x in subject),
        subject_stems=content_stems(body[:split]),
        predicate_stems=content_stems(body[split:]),
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
        existence=bool(existence),
        tentative=bool(TENTATIVE.search(text)),
        planned=bool(PLAN.search(text)),
        hedged=bool(HEDGE.search(text)),
        exception=bool(EXCEPTION.search(text)),
        additive=bool(ADDITIVE.search(text)),
    )


def lowercase_vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """Words that appear in lower case somewhere in the texts (so they are not names)."""
    return frozenset().union(*(_lowercase_words(text) for text in texts))


@lru_cache(maxsize=16384)
def _lowercase_words(text: str) -> frozenset[str]:
    return frozenset(tok.lower() for tok in words(text) if tok[:1].islower())


def analyse_in_case(text: str, lowercase_vocab: frozenset[str], said_on: SaidOn = None) -> Analysis:
    """analyse(text, lowercase_vocab, said_on), cached: dedup shows the same stored items again
    and again. The vocabulary only decides whether a capitalised first word is a name, so the
    cache key is the text, whether its first word is in the vocabulary, and `said_on`."""
    first = WORD_RX.search(text)
    common = first is not None and first.group().lower() in lowercase_vocab
    return _analyse_cached(text, common, said_on)


def said_on(valid_from: str | None) -> SaidOn:
    """(year, month) of an ISO date or timestamp, None when it is missing or unreadable."""
    m = re.match(r"(\d{4})-(\d{2})", valid_from or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


@lru_cache(maxsize=16384)
def _analyse_cached(text: str, first_word_common: bool, said: SaidOn) -> Analysis:
    first = WORD_RX.search(text)
    vocab = frozenset({first.group().lower()}) if first and first_word_common else frozenset()
    return analyse(text, vocab, said)
