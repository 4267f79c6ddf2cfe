"""Text analysis for the dedup judge: tokens, subjects, typed values and change cues.

Everything here is plain string work on one-line memory items. `analyse()` turns a sentence into
an `Analysis`; `judge.py` compares analyses pairwise. The word lists are general English (family
roles, pets, months, change verbs), never names or nouns taken from particular test cases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

STOPWORDS = frozenset(
    ["a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "about", "as", "than", "then", "so", "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "do", "does", "did", "will", "would", "can", "could", "should", "shall", "may", "might", "must", "it", "its", "it's", "this", "that", "these", "those", "there", "here", "their", "they", "them", "he", "she", "his", "her", "him", "hers", "we", "our", "us", "you", "your", "i", "me", "my", "mine", "who", "whom", "which", "what", "when", "where", "why", "how", "all", "any", "some", "each", "every", "both", "either", "neither", "more", "most", "much", "many", "very", "just", "also", "too", "only", "own", "same", "such", "not", "no", "nor", "up", "down", "out", "over", "under", "again", "once", "per", "via", "etc", "vs", "user", "user's", "s", "t", "one", "ones", "get", "gets", "got", "getting", "still", "really", "usually", "mostly", "mainly"]
)

# Family, social and pet words: they name *who* an item is about, so they are subject words.
RELATIONS: dict[str, str] = {
    "mum": "mother",
    "mom": "mother",
    "mother": "mother",
    "mam": "mother",
    "dad": "father",
    "father": "father",
    "sister": "sister",
    "brother": "brother",
    "sibling": "sibling",
    "son": "son",
    "daughter": "daughter",
    "kid": "child",
    "kids": "child",
    "child": "child",
    "children": "child",
    "baby": "baby",
    "parents": "parents",
    "parent": "parents",
    "partner": "partner",
    "wife": "wife",
    "husband": "husband",
    "boyfriend": "partner",
    "girlfriend": "partner",
    "spouse": "partner",
    "fiancé": "fiance",
    "fiancée": "fiance",
    "fiance": "fiance",
    "fiancee": "fiance",
    "ex": "ex",
    "ex-husband": "ex-husband",
    "ex-wife": "ex-wife",
    "ex-partner": "ex-partner",
    "cousin": "cousin",
    "aunt": "aunt",
    "uncle": "uncle",
    "niece": "niece",
    "nephew": "nephew",
    "grandmother": "grandmother",
    "grandma": "grandmother",
    "gran": "grandmother",
    "nan": "grandmother",
    "grandfather": "grandfather",
    "grandpa": "grandfather",
    "grandad": "grandfather",
    "granddaughter": "granddaughter",
    "grandson": "grandson",
    "stepson": "stepson",
    "stepdaughter": "stepdaughter",
    "stepmother": "stepmother",
    "stepfather": "stepfather",
    "friend": "friend",
    "colleague": "colleague",
    "coworker": "colleague",
    "co-worker": "colleague",
    "boss": "boss",
    "neighbour": "neighbour",
    "neighbor": "neighbour",
    "flatmate": "flatmate",
    "roommate": "flatmate",
    "housemate": "flatmate",
    "godson": "godson",
    "goddaughter": "goddaughter",
    "dog": "dog",
    "puppy": "dog",
    "cat": "cat",
    "kitten": "cat",
    "hamster": "hamster",
    "tortoise": "tortoise",
    "turtle": "turtle",
    "rabbit": "rabbit",
    "bunny": "rabbit",
    "parrot": "parrot",
    "budgie": "budgie",
    "horse": "horse",
    "pony": "horse",
    "guinea-pig": "guinea-pig",
    "ferret": "ferret",
    "gecko": "gecko",
    "snake": "snake",
}
# "Mother-in-law" is a different person from "mother": keep in-law compounds whole.
_IN_LAW = re.compile(r"^(\w+)-in-law$")

MONTHS = {
    m: m[:3]
    for m in ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
}
MONTHS.update({m[:3]: m[:3] for m in list(MONTHS)})
MONTHS["sept"] = "sep"
WEEKDAYS = {d: d[:3] for d in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]}
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "once": 1,
    "twice": 2,
    "a dozen": 12,
    "half": 0.5,
}

# Auxiliaries and common verbs: the first of them ends the grammatical subject of an item.
AUX = frozenset(
    ["is", "are", "was", "were", "be", "been", "am", "has", "have", "had", "does", "did", "do", "will", "would", "can", "could", "should", "may", "might", "must", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "didn't", "won't", "can't", "cannot", "hasn't", "haven't", "wouldn't", "shouldn't", "couldn't"]
)
_BASE_VERBS = ["live", "work", "use", "own", "play", "take", "keep", "prefer", "like", "love", "hate", "dislike", "want", "need", "move", "switch", "join", "leave", "stop", "drop", "quit", "cancel", "start", "run", "grow", "go", "get", "become", "say", "agree", "promise", "owe", "pay", "put", "buy", "sell", "tear", "break", "marry", "engage", "pass", "fail", "die", "adopt", "book", "settle", "stay", "date", "do", "study", "learn", "train", "save", "bake", "cook", "eat", "drink", "read", "sing", "write", "rent", "spend", "teach", "lead", "cover", "sit", "travel", "fly", "visit", "call", "ring", "send", "share", "meet", "feel", "find", "think", "try", "report", "enrol", "enroll", "diagnose", "tend", "avoid", "host", "order", "shoot", "edit", "print", "raise", "cut", "increase", "decrease", "reduce", "slip", "push", "postpone", "delay", "renew", "hire", "fire", "retire", "graduate", "finish", "complete", "open", "close", "launch", "sign", "wear", "give", "make", "let", "check", "set", "test", "backfill", "log", "appear", "seem", "plan", "lean", "consider", "hope", "look", "follow", "practise", "practice", "attend", "swim", "walk", "cycle", "drive", "commute", "lift", "host", "manage", "own", "volunteer", "mentor", "coach", "help"]
_IRREGULAR = ["went", "gone", "got", "gotten", "became", "said", "paid", "put", "bought", "sold", "tore", "torn", "broke", "broken", "took", "taken", "left", "ran", "grew", "grown", "flew", "flown", "sat", "met", "felt", "found", "thought", "read", "wrote", "written", "led", "spent", "taught", "made", "gave", "given", "kept", "let", "set", "cut", "quit", "ate", "eaten", "drank", "drunk", "sang", "sung"]


def _inflections(base: str) -> set[str]:
    """Regular verb forms: play/plays/played/playing, stop/stopped, move/moved/moving."""
    forms = {base}
    forms.add(base + "es" if base.endswith(("s", "sh", "ch", "x", "o")) else base + "s")
    if base.endswith("y") and base[-2] not in "aeiou":
        forms |= {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    elif base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    else:
        double = (
            len(base) <= 4
            and base[-1] not in "aeiouwxy"
            and base[-2] in "aeiou"
            and base[-3:-2] not in ("a", "e", "i", "o", "u")
        )
        stemmed = base + base[-1] if double else base
        forms |= {stemmed + "ed", stemmed + "ing"}
    if base.endswith("l"):  # British spelling: cancelled, travelling
        forms |= {base + "led", base + "ling"}
    return forms


SENTENCE_VERBS = frozenset(
    {form for base in _BASE_VERBS for form in _inflections(base)}
    | set(_IRREGULAR)
    | {
        "doesn't",
        "don't",
        "won't",
        "can't",
        "never",
        "always",
        "no",
        "not",
        "into",
        "back",
        "would",
        "will",
        "wants",
    }
)
CLAUSE_BREAKS = frozenset(
    ["when", "while", "if", "because", "so", "and", "or", "but", "that", "who", "which", "where", "since", "until", "after", "before"]
)

# Cues that the candidate reports a change of an existing value (supersede).
CHANGE_CUES: tuple[tuple[str, str], ...] = (
    ("no longer", r"\bno longer\b|\bnot any ?more\b|\bnot \w+ any ?more\b|\banymore\b"),
    ("stopped", r"\b(stopped|quit|quitting|gave up|given up|dropped|ditched|abandoned)\b"),
    ("cancelled", r"\b(cancell?ed|called off|scrapped|cancell?ing)\b"),
    ("moved", r"\b(moved|relocated|moving)\b"),
    ("switched", r"\b(switched|switching|changed|swapped|replaced|migrated)\b"),
    # "instead of blocking writes" describes a mechanism, not a changed choice.
    ("instead", r"\binstead\b(?! of \w+ing\b)"),
    ("after all", r"\bafter all\b|\bchanged (my|their|his|her) mind\b|\breversed\b"),
    ("now", r"\bnow\b|\bthese days\b|\bnowadays\b"),
    ("new", r"\bnew (?!york|zealand|year'?s?\b)(?=\S)"),
    ("left", r"^left\b|\bleft (the|a|an|their|his|her)\b|\bhas left\b"),
    ("ended", r"\bbroke up\b|\bsplit up\b|\bdivorced\b|\bseparated\b|\bended\b|\bsold\b"),
    ("died", r"\b(died|passed away|put down|was put to sleep|rehomed)\b"),
    (
        "status",
        r"^married\b|\bgot married\b|\bnow married\b|\bpassed\b|\bgraduated\b"
        r"|\bretired\b|\bfinished\b|\bcompleted\b|\bgave birth\b|\bwas born\b",
    ),
    (
        "number moved",
        r"\b(grew|rose|raised|increased|decreased|reduced|dropped|fell|cut|went up"
        r"|goes up|going up|gone up|went down|goes down|up to|down to|bumped)\b",
    ),
    (
        "date moved",
        r"\b(push|pushes|pushed|pushing|postponed|delayed|slipped|brought forward|moved up|rescheduled"
        r"|pushed back|deferred|extended)\b",
    ),
    ("back", r"\bback (in|to|at|on)\b"),
    (
        "gone off",
        r"\bgone off\b|\bgone back\b|\bgot rid of\b|\bsettled on\b|\bwent with\b"
        r"|\bopted for\b|\bdecided on\b|\bdecided against\b",
    ),
)
_CUE_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in CHANGE_CUES)

# Words that mark an existing item as tentative, so a firm different choice replaces it.
TENTATIVE = re.compile(
    r"\b(leaning|considering|thinking about|thinking of|might|maybe|probably|undecided"
    r"|wants|would like|planning|plans to|hoping|likely)\b",
    re.IGNORECASE,
)
# "Only for X", "except": an exception that leaves the general rule standing.
EXCEPTION = re.compile(
    r"\bonly (for|in|on|when|at)\b|\bexcept\b|\bapart from\b|\bunless\b", re.IGNORECASE
)
# "A second cat", "another car": a new thing beside the known one.
ADDITIVE = re.compile(
    r"\b(second|another|third|also|as well|too|extra|additional)\b", re.IGNORECASE
)
NEGATION = re.compile(
    r"\b(won't|wont|will not|doesn't|does not|don't|do not|isn't|is not|can't|cannot|never"
    r"|not|didn't|no longer|hasn't|haven't|aren't)\s+(\w+)",
    re.IGNORECASE,
)

# Small frames: slot words that a paraphrase may not share (moved to X ~ lives in Y).
FRAMES: tuple[tuple[str, str], ...] = (
    (
        "residence",
        r"\b(lives|living|live|based|resides|settled) in\b|\bmoved (to|from|house)\b"
        r"|\brelocated\b|\bmoving to\b|\bhome is in\b",
    ),
    (
        "work mode",
        r"\bremote(ly)?\b|\bin the office\b|\bin-office\b|\bfrom home\b|\bhybrid\b"
        r"|\bwfh\b|\boffice \w+ days\b|\bdays a week in\b|\breturn-to-office\b",
    ),
    (
        "relationship",
        r"\b(dating|engaged|married|divorced|single|broke up|split up"
        r"|girlfriend|boyfriend|seeing someone)\b",
    ),
    (
        "employer",
        r"\bworks (as|at|for)\b|\bjob\b|\bemployer\b|\bjoined\b|\bhired\b"
        r"|\bworking (as|at|for)\b",
    ),
    ("travel", r"\b(flying|flight|trip|travell?ing|holiday|vacation) (to|in)\b|\bvisiting\b"),
    ("diet", r"\b(vegetarian|vegan|pescatarian|keto|kosher|halal|gluten-free)\b"),
)
_FRAME_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in FRAMES)

_WORD = re.compile(r"[A-Za-zÀ-ÿ0-9£€$%+][\wÀ-ÿ'’+.&/%-]*[\wÀ-ÿ+%]|[A-Za-zÀ-ÿ0-9]")
_MONEY = re.compile(r"([£$€])\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|bn)?\b", re.IGNORECASE)
_PCT = re.compile(r"(\d+(?:\.\d+)?)\s?(%|percent|per cent)")
_DURATION = re.compile(r"\b(\d{1,2}):(\d{2}):(\d{2})\b")
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s?(am|pm)\b|\b(\d{1,2}):(\d{2})\b", re.IGNORECASE)
_MONTH_RX = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s?[-–]\s?(\d{{1,2}})(?:st|nd|rd|th)?)?\s+(?:of\s+)?"
    rf"({_MONTH_RX})\b|\b({_MONTH_RX})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s?[:,]?\d{{2}})",
    re.IGNORECASE,
)
_BARE_HOUR = re.compile(
    r"\b(?:before|after|until|till|from|at) (\d{1,2})\b(?![:.,]?\d|\s?%)", re.IGNORECASE
)
_ORDINAL = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_NUMBER = re.compile(r"(?<![\w.:£$€])(\d+(?:[.,]\d+)*)(?:\s?-\s?|\s)?([a-z]+)?", re.IGNORECASE)
_NUMWORD = re.compile(
    r"\b(" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b\s*([a-z]+)?",
    re.IGNORECASE,
)
# "from X to Y", "instead of X", "stopped X": the words of X are the old value.
_OLD_VALUE = re.compile(
    r"\bfrom (?:the |a |an |their |his |her )?(.+?)(?= to\b| in\b| for\b|[,;:.]|$)"
    r"|\binstead of (?:the |a |an )?(.+?)(?=[,;:.]|$)"
    r"|\b(?:stopped|quit|dropped|cancell?ed|left|gone off|gave up|no longer|ditched|broke up with"
    r"|sold|not)\s+(?:using |doing |eating |drinking |going to |the |a |an |their |his |her )?"
    r"(.+?)(?=[,;:.]| in \w+ \d| in (?:19|20)\d\d| to focus| because| after| so\b|$)"
    r"|\bafter trying (?:the |a |an )?(.+?)(?=[,;:.]|$)",
    re.IGNORECASE,
)
# "a new manager", "new half-marathon PB": the noun after "new" names the slot that changed.
_NEW_SLOT = re.compile(r"\bnew ([\w-]+(?: [a-z][\w-]*)?)", re.IGNORECASE)
# "to Y", "now Y", "instead": the words after these are the new value.
_NEW_VALUE = re.compile(
    r"\b(?:to|now|into|with|for) (?:the |a |an )?(.+?)(?=[,;:.]| because| after| from| in \w+"
    r" \d| in (?:19|20)\d\d|$)"
    r"|\bbooked (?:the |a |an )?(.+?)(?= instead|[,;:.]|$)"
    r"|\bsettled on (?:the |a |an )?(.+?)(?= for| after|[,;:.]|$)",
    re.IGNORECASE,
)


def stem(word: str) -> str:
    """A light suffix stripper: enough to match lives/live/living or classes/class."""
    w = word.lower().strip("'’.")
    if w.endswith("'s") or w.endswith("’s"):
        w = w[:-2]
    if len(w) <= 3 or not w.isalpha():
        return w
    for suf, rep in (
        ("ies", "y"),
        ("ied", "y"),
        ("ying", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", "e"),
        ("s", ""),
    ):
        if w.endswith(suf) and len(w) - len(suf) >= 3 and not w.endswith("ss"):
            w = w[: len(w) - len(suf)] + rep
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def words(text: str) -> list[str]:
    """Surface tokens in order, punctuation dropped; hyphenated words kept whole."""
    return _WORD.findall(text)


def content_stems(tokens: Iterable[str]) -> frozenset[str]:
    """Stems of the words that carry meaning; a number glued to a unit is split off."""
    out: set[str] = set()
    for tok in tokens:
        low = tok.lower()
        if low in STOPWORDS:
            continue
        parts = re.split(r"[-/]", low) if re.search(r"\d", low) else [low]
        for part in parts:
            if part and part not in STOPWORDS:
                out.add(RELATIONS.get(part, stem(part)))
    return frozenset(out)


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def typed_values(text: str) -> dict[str, frozenset[str]]:
    """Numbers, money, times, dates and weekdays, each under a type key.

    Two items conflict on a value only when they hold different values of the same type, so a
    count is keyed by the word after it ("7 engineers" vs "10 engineers").
    """
    vals: dict[str, set[str]] = {}
    used: list[tuple[int, int]] = []

    def add(kind: str, value: str, span: tuple[int, int]) -> None:
        vals.setdefault(kind, set()).add(value)
        used.append(span)

    def free(span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in used)

    for m in _MONEY.finditer(text):
        mult = {"k": 1e3, "m": 1e6, "bn": 1e9}.get((m.group(3) or "").lower(), 1.0)
        add("money", _fmt(_num(m.group(2)) * mult), m.span())
    for m in _PCT.finditer(text):
        if free(m.span()):
            add("percent", _fmt(_num(m.group(1))), m.span())
    for m in _DURATION.finditer(text):
        add("duration", m.group(0), m.span())
    for m in _DAY_MONTH.finditer(text):
        if not free(m.span()):
            continue
        if m.group(3):
            month = MONTHS[m.group(3).lower()]
            for day in (m.group(1), m.group(2)):
                if day:
                    add("date", f"{int(day)} {month}", m.span())
        else:
            add("date", f"{int(m.group(5))} {MONTHS[m.group(4).lower()]}", m.span())
    for m in _CLOCK.finditer(text):
        if not free(m.span()):
            continue
        if m.group(3):
            hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "pm" else 0)
            add("clock", f"{hour}:{m.group(2) or '00'}", m.span())
        else:
            add("clock", f"{int(m.group(4))}:{m.group(5)}", m.span())
    for m in _BARE_HOUR.finditer(text):
        # "no calls before 11": a bare hour after a time preposition is a clock time.
        if free(m.span(1)):
            add("clock", f"{int(m.group(1))}:00", m.span(1))
    for m in _YEAR.finditer(text):
        if free(m.span()):
            add("year", m.group(1), m.span())
    for m in _ORDINAL.finditer(text):
        if free(m.span()):
            add("day", str(int(m.group(1))), m.span())
    low = text.lower()
    for tok in re.findall(r"[a-z]+", low):
        if tok in MONTHS and tok != "may":
            vals.setdefault("month", set()).add(MONTHS[tok])
        day = tok[:-1] if tok.endswith("s") else tok
        if day in WEEKDAYS:
            vals.setdefault("weekday", set()).add(WEEKDAYS[day])
    if re.search(r"\bmay\b(?=\s+(\d|(19|20)\d\d))|\bin may\b", low):
        vals.setdefault("month", set()).add("may")
    for d in vals.get("date", set()):
        vals.setdefault("month", set()).add(d.split()[1])
    for m in _NUMBER.finditer(text):
        if not free(m.span(1)):
            continue
        unit = m.group(2)
        key = "n:" + (stem(unit) if unit and unit.lower() not in STOPWORDS else "")
        vals.setdefault(key, set()).add(_fmt(_num(m.group(1))))
    for m in _NUMWORD.finditer(low):
        unit = m.group(2)
        key = "n:" + (stem(unit) if unit and unit not in STOPWORDS else "")
        vals.setdefault(key, set()).add(_fmt(float(NUMBER_WORDS[m.group(1)])))
    return {k: frozenset(v) for k, v in vals.items()}


@dataclass(frozen=True)
class Analysis:
    """What the judge needs to know about one item's sentence."""

    text: str
    tokens: tuple[str, ...]
    stems: frozenset[str]
    subject: frozenset[str]  # who/what the item is about ('user' when it starts with a verb)
    subject_stems: frozenset[str]  # content stems of the grammatical subject
    predicate_stems: frozenset[str]  # content stems after the subject
    entities: frozenset[str]  # every person, pet or proper name mentioned
    names: frozenset[str]  # capitalised value words (products, places, people)
    values: dict[str, frozenset[str]] = field(hash=False)
    cues: frozenset[str] = frozenset()
    slot_words: frozenset[str] = frozenset()  # "a new manager": the slot that changed
    old_words: frozenset[str] = frozenset()
    new_words: frozenset[str] = frozenset()
    negated: frozenset[str] = frozenset()
    frames: frozenset[str] = frozenset()
    existence: bool = False  # "Has a teenage daughter": says only that someone exists
    tentative: bool = False
    exception: bool = False
    additive: bool = False


def _is_verbish(low: str) -> bool:
    return low in SENTENCE_VERBS or low in AUX


def _is_finite_verb(low: str) -> bool:
    """A verb form that only follows a subject: 'is', 'owns', 'moved', 'grew' (not 'order')."""
    if low in AUX or low in _IRREGULAR:
        return True
    return low in SENTENCE_VERBS and (low.endswith("s") or low.endswith("ed"))


def _entity_key(tok: str) -> str | None:
    low = tok.lower().rstrip("'’s") if tok.lower().endswith(("'s", "’s")) else tok.lower()
    if low in RELATIONS:
        return RELATIONS[low]
    if _IN_LAW.match(low):
        return low
    if low in ("user", "user's"):
        return "user"
    return None


def _name_like(tok: str, index: int, lowercase_vocab: frozenset[str], nxt: str | None) -> bool:
    """Is a capitalised token a proper name (person, pet, product, place)?"""
    bare = re.sub(r"['’]s$", "", tok)
    if not bare[:1].isupper() and not re.search(r"[a-z][A-Z]", bare):
        return False
    low = bare.lower()
    if low in MONTHS or low.rstrip("s") in WEEKDAYS or low in STOPWORDS or low in RELATIONS:
        return False
    if index > 0:
        return True
    if bare != tok:  # "Pepper's vet": a possessive opener names its owner
        return True
    if low in SENTENCE_VERBS or low in AUX or low in lowercase_vocab:
        return False
    # An opener followed by a finite verb ("Marco owns ...") is a name unless the word also
    # appears in lower case elsewhere, which marks it as an ordinary noun ("Rent goes up").
    return nxt is not None and _is_finite_verb(nxt.lower())


def _is_acronym(tok: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{2,6}s?", tok))


def _phrase_stems(rx: re.Pattern[str], text: str) -> frozenset[str]:
    out: set[str] = set()
    for m in rx.finditer(text):
        for grp in m.groups():
            if grp:
                out |= content_stems(words(grp))
    return frozenset(out)


def analyse(text: str, lowercase_vocab: frozenset[str] = frozenset()) -> Analysis:
    """Parse one item; `lowercase_vocab` holds words seen in lower case elsewhere in the case."""
    toks = words(text)
    lows = [t.lower() for t in toks]
    entities: set[str] = set()
    names: set[str] = set()
    for i, tok in enumerate(toks):
        key = _entity_key(tok)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if key:
            entities.add(key)
        elif _name_like(tok, i, lowercase_vocab, nxt):
            low = re.sub(r"['’]s$", "", tok.lower())
            entities.add(low)
            if not _is_acronym(tok):
                names.add(low)

    # Grammatical subject: the words before the first verb or clause break.
    subject: set[str] = set()
    existence = False
    subj_words: list[str] = []
    starts_with_verb = (
        bool(lows)
        and _entity_key(toks[0]) is None
        and (
            _is_verbish(lows[0])
            or lows[0].endswith("ed")
            # "Practises Spanish daily" opens with a verb; "Backups are ..." with a plural noun.
            or (
                lows[0].endswith("s")
                and not lows[0].endswith("ss")
                and lows[0].isalpha()
                and len(lows) > 1
                and not _is_verbish(lows[1])
                and not text[len(toks[0]) :].lstrip().startswith((":", "-", "("))
            )
        )
    )
    split = 0
    if not starts_with_verb:
        for i, tok in enumerate(toks):
            low = lows[i]
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if i > 0 and (
                low in AUX
                or low in CLAUSE_BREAKS
                or (low in SENTENCE_VERBS and _entity_key(tok) is None)
            ):
                break
            if i > 0 and low.endswith("ed") and _entity_key(tok) is None and low.isalpha():
                break
            subj_words.append(tok)
            split = i + 1
            key = _entity_key(tok)
            if key:
                subject.add(key)
            elif _name_like(tok, i, lowercase_vocab, nxt):
                subject.add(re.sub(r"['’]s$", "", low))
            if re.search(r"[:;,]", text[: text.find(tok) + len(tok) + 1][-1:]):
                break
    else:
        subject.add("user")
    if subject == {"user"}:
        # "Has a cat called Tofu": an existence statement is about the pet or relative.
        m = re.match(
            r"(?:user\s+)?(?:has|have|got|adopted|owns)\s+(?:a|an|two|three)\s+(.*)", text, re.I
        )
        if m:
            for i, tok in enumerate(words(m.group(1))[:4]):
                key = _entity_key(tok)
                if key:
                    subject.add(key)
                    existence = True
                    rest = words(m.group(1))[i + 1 : i + 3]
                    subject |= {r.lower() for r in rest if r[:1].isupper()}
                    break
    subject_stems = content_stems(subj_words)
    predicate_stems = content_stems(toks[split:])

    cues = frozenset(name for name, rx in _CUE_RES if rx.search(text))
    negated = frozenset(stem(m.group(2)) for m in NEGATION.finditer(text))
    frames = frozenset(name for name, rx in _FRAME_RES if rx.search(text))
    return Analysis(
        text=text,
        tokens=tuple(lows),
        stems=content_stems(toks),
        subject=frozenset(subject),
        subject_stems=subject_stems,
        predicate_stems=predicate_stems,
        entities=frozenset(entities),
        names=frozenset(names),
        values=typed_values(text),
        cues=cues,
        slot_words=_phrase_stems(_NEW_SLOT, text),
        old_words=_phrase_stems(_OLD_VALUE, text),
        new_words=_phrase_stems(_NEW_VALUE, text),
        negated=negated,
        frames=frames,
        existence=existence,
        tentative=bool(TENTATIVE.search(text)),
        exception=bool(EXCEPTION.search(text)),
        additive=bool(ADDITIVE.search(text)),
    )


def lowercase_vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """Words that appear in lower case somewhere in the texts (so they are not names)."""
    out: set[str] = set()
    for text in texts:
        for tok in words(text):
            if tok[:1].islower():
                out.add(tok.lower())
    return frozenset(out)


def value_conflicts(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> list[str]:
    """Types where each side holds a value the other lacks (a changed number, date, day...)."""
    out = []
    for kind in a.keys() & b.keys():
        if a[kind] - b[kind] and b[kind] - a[kind]:
            out.append(kind)
    # A month named alone may sit inside a full date on the other side: compare months only once.
    if "date" in out and "month" not in out:
        pass
    return out


def shared_values(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> int:
    return sum(len(a[k] & b[k]) for k in a.keys() & b.keys())
