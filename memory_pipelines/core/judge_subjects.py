"""Who a memory item is about: the subject of a one-line note, for the dedup judge.

"Lives in Leeds" opens with a verb, so it is about the user; "Sister Mia lives in Cork" is about
Mia; "Choir rehearses on Wednesdays" is about the choir. A subject ends at a verb: a listed one
(`judge_lexicon.SENTENCE_VERBS`), or a word inflected like one where a verb stands. Names are
capitalised words inside a sentence, or a capitalised opener that a verb follows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
    bare,
    wordlist,
    words,
)
from memory_pipelines.core.past_tense import NOT_PAST


def _is_verbish(low: str) -> bool:
    return low in SENTENCE_VERBS or low in AUX


def _is_finite_verb(low: str) -> bool:
    """A verb form that follows a subject: 'is', 'owns', 'moved', 'grew' (not 'order'), or
    any past in -ed ("Karen handed her notice in")."""
    if low in AUX or low in IRREGULAR:
        return True
    if low.endswith("ed") and len(low) >= 5 and low not in NOT_PAST | _TOLD:
        return True
    return low in SENTENCE_VERBS and low.endswith(("s", "ed"))


# Pasts of telling, whose subject is the teller, not the one the fact is about ("Siobhán
# corrected herself: her nephew Cathal is turning nine")
_TOLD = frozenset(
    wordlist("added asked corrected mentioned explained noted confirmed clarified admitted")
    + wordlist("replied answered reported stated remarked insisted repeated claimed announced")
    + wordlist("shared revealed suggested warned reminded emailed texted messaged posted joked")
)


def entity_key(tok: str) -> str | None:
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


def name_kind(
    toks: Sequence[str],
    i: int,
    lowercase_vocab: frozenset[str],
    case_names: frozenset[str] = frozenset(),
) -> str | None:
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
    # "Sentry alerts go to ..." beside "Uses Sentry for ...": the case writes it as a name, and
    # a verb follows (in a verbless note, "Skyway frequent flyer member", it qualifies the user).
    if low in case_names and any(_is_verbish(t.lower()) for t in toks[i + 1 : i + 4]):
        return "sure"
    if _pair_of_people(toks, i):
        return "guess"
    return "guess" if i + 1 < len(toks) and _is_finite_verb(toks[i + 1].lower()) else None


def _pair_of_people(toks: Sequence[str], i: int) -> bool:
    """A capitalised opener joined by "and" to a name or to somebody's relative: "Kenji and Mai
    broke up", "Lucas and his wife had a baby" (not "Salt and pepper", "Rent and bills")."""
    if i + 2 >= len(toks) or toks[i + 1].lower() != "and":
        return False
    other = toks[i + 2]
    if _capitalised(other):
        return True
    owned = other.lower() in ("his", "her", "their")
    return owned and i + 3 < len(toks) and entity_key(toks[i + 3]) is not None


def is_acronym(tok: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{2,6}s?", tok))


def _opens_with_verb(toks: Sequence[str], lows: Sequence[str], breaks: Sequence[str]) -> bool:
    if not lows or entity_key(toks[0]) is not None:
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
    if verb and lows[0].endswith("ing") and len(lows) > 2 and not any(breaks[:2]):
        # "Living room faces south-west", "Swimming pool opens at 7": an "-ing" word, a plain
        # noun, then a verb of the third person: a noun phrase is the subject.
        nxt, third = lows[1], lows[2]
        plain = nxt.isalpha() and toks[1][:1].islower() and nxt not in STOPWORDS
        plain = plain and nxt not in PREPOSITIONS and nxt not in _MORE_PREPOSITIONS
        if plain and not _is_verbish(nxt) and toks[2][:1].islower() and _third_person(third):
            return False
    if verb and lows[0] not in AUX:
        # "Rent is ...", "Orders service owns ...": a noun that a present-tense verb follows.
        for j in (1, 2):
            nxt = lows[j] if j < len(lows) and not any(breaks[:j]) else ""
            if nxt in AUX or (nxt.endswith("s") and nxt in SENTENCE_VERBS):
                return False
    return verb


# Prepositions that never end a subject elsewhere, but follow a verb ("Leaning towards ...").
_MORE_PREPOSITIONS = frozenset(("towards", "toward", "through", "across", "around", "against"))


def _third_person(low: str) -> bool:
    """'is', 'has', 'faces', 'opens': a verb form that a singular subject takes."""
    return low in AUX or (
        low.isalpha() and low.endswith("s") and not low.endswith(("ss", "us", "is", "'s"))
    )


def _verb_after_subject(low: str, prev: str) -> bool:
    """Is this the verb that follows a subject? 'owns', 'moved', 'grew'; a bare 'stay' only
    after a plural ("the kids stay"), so 'review' in "Security review for ..." stays a noun."""
    if _is_finite_verb(low) or (low.endswith("ed") and low.isalpha()):
        return True
    return low in SENTENCE_VERBS and prev.endswith("s") and not prev.endswith(("'s", "ss"))


def subject_span(toks: Sequence[str], breaks: Sequence[str]) -> tuple[int, bool]:
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
        if entity_key(toks[i]) is None and _verb_after_subject(low, lows[j]):
            return i, False
        if _unknown_verb(toks, lows, i):
            return i, False
    return len(toks), True


def apposition(toks: Sequence[str], breaks: Sequence[str]) -> int | None:
    """Where the subject ends when a name opens the item with its role set off by commas
    ("Rosa, the partner, eats a vegan diet"; "Lena, the younger sister, was born on ..."):
    after the second comma, if a verb follows it. None otherwise."""
    if len(toks) < 5 or breaks[0] != "," or not toks[0][:1].isupper():
        return None
    if toks[1].lower() not in DETERMINERS:
        return None
    for k in range(2, min(5, len(toks) - 1)):
        if breaks[k] == ",":
            nxt = toks[k + 1].lower()
            return k + 1 if _is_finite_verb(nxt) or _is_verbish(nxt) else None
        if breaks[k]:
            return None
    return None


def _unknown_verb(toks: Sequence[str], lows: Sequence[str], i: int) -> bool:
    """A word that no list knows, inflected like a verb and followed by what follows a verb
    ("Choir rehearses on Wednesdays", "Boiler needs a service"): a singular subject's verb."""
    low, prev = lows[i], lows[i - 1]
    if low in STOPWORDS or not low.isalpha() or toks[i][:1].isupper():
        return False
    if not (low.endswith("s") and not low.endswith(("ss", "us", "is"))):
        return False
    if prev.endswith("s") or entity_key(toks[i]) is not None:
        return False  # "Orders service", "Kids stay": plural nouns run together
    nxt = lows[i + 1] if i + 1 < len(lows) else ""
    if nxt in PREPOSITIONS or nxt in DETERMINERS:
        return True
    # "Garden faces north", "Car needs new tyres"; but "Kitchen tiles are white": a plural noun
    # that a verb follows.
    return (
        prev not in STOPWORDS
        and prev not in DETERMINERS
        and (nxt[:1].isalnum() or nxt[:1] in "£$€")
        and not _is_verbish(nxt)
        and nxt not in STOPWORDS
    )


def existence_subjects(body: Sequence[str]) -> set[str]:
    """'Has a cat called Tofu', 'User has a teenage daughter': the item is about that pet or
    relative (and its name), not just about the user."""
    m = re.match(
        r"(?:user\s+)?(?:has|have|got|adopted|owns)\s+(?:a|an|two|three)\s+(.*)",
        " ".join(body),
        re.IGNORECASE,
    )
    rest = words(m.group(1)) if m else []
    for i, tok in enumerate(rest[:4]):
        key = entity_key(tok)
        if key:
            return {"user", key} | {r.lower() for r in rest[i + 1 : i + 3] if r[:1].isupper()}
    # "Owns a 14-year-old mare called Tilly": whatever the animal or thing, it has a name.
    for i, tok in enumerate(rest[:6]):
        if tok.lower() in ("called", "named") and rest[i + 1 : i + 2] and rest[i + 1][:1].isupper():
            return {"user", bare(rest[i + 1]).lower()}
    return set()
