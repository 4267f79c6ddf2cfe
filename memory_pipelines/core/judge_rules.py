"""Text analysis for the dedup judge: subjects, typed values and change cues.

Memory items are one-line notes ("Lives in Leeds", "Sister Mia lives in Cork", "Standup now
starts at 10:00"). `analyse()` turns one into an `Analysis`; `judge_pairs.compare()` sets a
candidate beside one stored item. Pure string work;
the word lists are general English (family roles, pets, months, verbs of change), never names or
nouns taken from particular test cases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from memory_pipelines.core.corrections import correction


def _wordlist(text: str) -> tuple[str, ...]:
    """A whitespace-separated word list, kept as one readable block in the source."""
    return tuple(text.split())


STOPWORDS = frozenset(
    _wordlist(
        """
        a an the and or but if of to in on at by for with from into onto about as than then so
        is are was were be been being am has have had do does did will would can could should
        shall may might must it its it's this that these those there here their they them he
        she his her him hers we our us you your i me my mine who whom which what when where why
        how all any some each every both either neither more most much many very just also too
        only own same such not no nor up down out over under again once per via etc vs user
        user's s t one ones get gets got getting still really usually mostly mainly
        """
    )
)


def _aliases(text: str) -> dict[str, str]:
    """'mother=mum,mom' lines -> {'mother': 'mother', 'mum': 'mother', 'mom': 'mother'}."""
    out: dict[str, str] = {}
    for entry in text.split():
        key, _, rest = entry.partition("=")
        out[key] = key
        out.update({alias: key for alias in rest.split(",") if alias})
    return out


# Family, social and pet words: they say *who* an item is about, so they are subject words.
RELATIONS = _aliases(
    """
    mother=mum,mom,mam father=dad sister brother sibling son daughter child=kid,kids,children
    baby parents=parent partner=boyfriend,girlfriend,spouse wife husband
    fiance=fiancé,fiancée,fiancee ex ex-husband ex-wife ex-partner cousin aunt uncle niece nephew
    grandmother=grandma,gran,nan grandfather=grandpa,grandad granddaughter grandson stepson
    stepdaughter stepmother stepfather friend colleague=coworker,co-worker boss
    neighbour=neighbor flatmate=roommate,housemate godson goddaughter
    dog=puppy cat=kitten hamster tortoise turtle rabbit=bunny parrot budgie horse=pony guinea-pig
    ferret gecko snake
    """
)
_RELATION_KEYS = frozenset(RELATIONS.values())
# "Mother-in-law" is a different person from "mother": in-law compounds stay whole.
_IN_LAW = re.compile(r"^(\w+)-in-law$")

_MONTH_NAMES = _wordlist(
    "january february march april may june july august september october november december"
)
MONTHS = {m: m[:3] for m in _MONTH_NAMES} | {m[:3]: m[:3] for m in _MONTH_NAMES} | {"sept": "sep"}
WEEKDAYS = {d: d[:3] for d in _wordlist("monday tuesday wednesday thursday friday saturday sunday")}
_DAY_SETS = {"weekday": ("mon", "tue", "wed", "thu", "fri"), "weekend": ("sat", "sun")}
NUMBER_WORDS = {
    **{w: n for n, w in enumerate(_wordlist("one two three four five six seven eight nine"), 1)},
    "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "hundred": 100, "once": 1, "twice": 2, "a dozen": 12, "half": 0.5,
}  # fmt: skip

AUX = frozenset(
    _wordlist(
        """
        is are was were be been am has have had does did do will would can could should may
        might must isn't aren't wasn't weren't doesn't don't didn't won't can't cannot hasn't
        haven't wouldn't shouldn't couldn't
        """
    )
)
# Common verbs of personal notes; their inflections are generated below.
_BASE_VERBS = _wordlist(
    """
    live work use own play take keep prefer like love hate dislike want need move switch join
    leave stop drop quit cancel start run grow go get become say agree promise owe pay put buy
    sell tear break marry engage pass fail die adopt book settle stay date do study learn train
    save bake cook eat drink read sing write rent spend teach lead cover sit travel fly visit
    call ring send share meet feel find think try report enrol enroll diagnose tend avoid host
    order shoot edit print raise cut increase decrease reduce slip push postpone delay renew
    hire fire retire graduate finish complete open close launch sign wear give make let check
    set test backfill log appear seem plan lean consider hope look follow practise practice
    attend swim walk cycle drive commute lift manage volunteer mentor coach help ride knit paint
    draw climb hike ski surf brew collect fix build design code develop organise organize
    support hold carry bring sleep wake jog row dance clean mind care feed lease smoke meditate
    journal track invest donate lend borrow earn charge ship deliver stock serve review tutor
    head chair sail skate bike rely struggle suffer handle
    """
)
_IRREGULAR = frozenset(
    _wordlist(
        """
        went gone got gotten became said paid put bought sold tore torn broke broken took taken
        left ran grew grown flew flown sat met felt found thought read wrote written led spent
        taught made gave given kept let set cut quit ate eaten drank drunk sang sung
        """
    )
)


def _inflections(base: str) -> set[str]:
    """Regular verb forms: play/plays/played/playing, stop/stopped, move/moved/moving."""
    forms = {base, base + "es" if base.endswith(("s", "sh", "ch", "x", "o")) else base + "s"}
    if base.endswith("y") and base[-2] not in "aeiou":
        forms |= {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    elif base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    else:
        # stop -> stopped: a short word ending consonant-vowel-consonant doubles its last letter
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
    | _IRREGULAR
    # Openers that behave like a verb: the item is about the user ("Never leave ...").
    | set(_wordlist("doesn't don't won't can't never always no not into back would will"))
)
DETERMINERS = frozenset(_wordlist("a an the their his her my our its this that these those"))
PREPOSITIONS = frozenset(_wordlist("at for with on in from to of about by near into under over"))
# Words that end a subject ("and" does not: "Jake and the user have been friends").
CLAUSE_BREAKS = frozenset(
    _wordlist("when while if because so but that who which where since until after before")
)
# Openers that say nothing about the subject: "Now lives in ...", "Previously worked at ...".
LEADING_ADVERBS = frozenset(
    _wordlist(
        """
        now recently currently finally still also just already actually apparently probably
        usually often sometimes again previously formerly originally lately later soon
        eventually normally generally typically
        """
    )
)

_MONTH_ALT = "|".join(_MONTH_NAMES)
# Cues that the candidate reports a change of a stored value (supersede). Weak ones ("now",
# "new", "started") often ride along with a fact that did not change; judge.py knows which.
_CHANGE_CUES: tuple[tuple[str, str], ...] = (
    ("no longer", r"\bno longer\b|\bnot any ?more\b|\bnot \w+ any ?more\b|\banymore\b"),
    ("stopped", r"\b(stopped|quit|quitting|gave up|given up|dropped|ditched|abandoned)\b"),
    ("cancelled", r"\b(cancell?ed|called off|scrapped|cancell?ing)\b"),
    ("moved", r"\b(moved|relocated|moving)\b"),
    ("switched", r"\b(switched|switching|changed|swapped|replaced|migrated)\b"),
    # "fails instead of blocking writes" describes a mechanism, not a changed choice.
    ("instead", r"\binstead\b(?! of \w+ing\b)"),
    ("after all", r"\bafter all\b|\bchanged (my|their|his|her) mind\b|\breversed\b"),
    ("now", r"\bnow\b|\bthese days\b|\bnowadays\b"),
    ("new", r"\bnew\b(?! york| zealand)"),  # narrowed further by _new_value_cue()
    ("left", r"^left\b|\bleft (the|a|an|their|his|her)\b|\bhas left\b"),
    ("ended", r"\bbroke up\b|\bsplit up\b|\bdivorced\b|\bseparated\b|\bended\b|\bsold\b"),
    ("died", r"\b(died|passed away|put down|was put to sleep|rehomed)\b"),
    (
        "status",
        r"^married\b|\bgot married\b|\bnow married\b|\bpassed\b|\bgraduated\b|\bretired\b"
        r"|\bfinished\b|\bcompleted\b|\bgave birth\b|\bwas born\b|\bpromoted\b|\bdemoted\b"
        r"|\bpaid off\b",
    ),
    ("started", r"\b(started|began|begun|starting)\b"),
    (
        "number moved",
        r"\b(grew|rose|raised|increased|decreased|reduced|dropped|fell|cut|went up|goes up"
        r"|going up|gone up|went down|goes down|up to|down to|bumped)\b",
    ),
    (
        "date moved",
        r"\b(push|pushes|pushed|pushing|postponed|delayed|slipped|brought forward|moved up"
        r"|rescheduled|pushed back|deferred|extended)\b",
    ),
    ("back", r"\bback (in|to|at|on)\b"),
    # "works three days a week from October": a value that holds from some point on.
    (
        "since",
        rf"\b(from|since|as of|starting|effective) (the )?(\d{{1,2}} )?(next|this|last"
        rf"|{_MONTH_ALT}|spring|summer|autumn|fall|winter)\b"
        r"|\b(went|gone|going) (part|full)-time\b",
    ),
    (
        "settled",
        r"\bgone off\b|\bgone back\b|\bgot rid of\b|\bsettled on\b|\bwent with\b|\bopted for\b"
        r"|\bdecided on\b|\bdecided against\b",
    ),
)
_CUE_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in _CHANGE_CUES)

# A stored item that is only tentative ("leaning towards a van") is replaced by a firm choice.
_TENTATIVE = re.compile(
    r"\b(leaning|considering|thinking about|thinking of|might|maybe|probably|undecided|wants"
    r"|would like|planning|plans to|hoping|likely)\b",
    re.IGNORECASE,
)
# A plan or an open choice ("leaning towards a van", "looking for a sofa"): settled by a firm one.
_PLAN = re.compile(
    r"\b(leaning (towards?|to)|considering|thinking (of|about)|planning (to|on|for)|plans? to"
    r"|looking (for|at)|might|maybe|undecided|torn between|hoping to|weighing up)\b",
    re.IGNORECASE,
)
# A hedged report ("Probably works in healthcare", "Seems to favour ..."): an inference about
# something, vaguer than a stated fact and never a new value of it.
_HEDGE = re.compile(
    r"^(probably|likely|apparently|possibly|perhaps|presumably)\b|\b(appears?|seems?) to\b",
    re.IGNORECASE,
)
# "Uses Poetry only for the legacy repo", "except": an exception that leaves the rule standing.
_EXCEPTION = re.compile(
    r"\bonly (for|in|on|when|at|after|before|during|if|with)\b|\bexcept\b|\bapart from\b"
    r"|\bunless\b",
    re.IGNORECASE,
)
# "A second cat", "another car": a new thing beside the known one.
_ADDITIVE = re.compile(
    r"(?<![\w-])(second|another|third|also|as well|too|extra|additional)(?![\w-])", re.I
)  # not "second-hand"
# "Prefers tea to coffee": the preferred and the dispreferred side, to spot a reversal.
_PREFERENCE_PAIR = re.compile(
    r"\b(?:prefer\w*|would rather|rather)\s+(.+?)\s+(?:to|over|than|rather than|instead of)\s+"
    r"(.+?)(?=[,;.]|$|\s(?:for|when|in|on|at|these|now|because|as)\b)",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(won't|wont|will not|doesn't|does not|don't|do not|isn't|is not|can't|cannot|never|not"
    r"|didn't|no longer|hasn't|haven't|aren't)\s+(\w+)",
    re.IGNORECASE,
)
# Small frames: slots that a rewording may express without shared words ("moved to X" is the
# residence slot of "lives in Y"; "back in the office" is the work-mode slot of "fully remote").
_FRAMES: tuple[tuple[str, str], ...] = (
    (
        "residence",
        r"\b(lives|living|live|based|resides|settled) in\b|\bmoved (to|from|house)\b"
        r"|\brelocated\b|\bmoving to\b|\bhome is in\b",
    ),
    (
        "work mode",
        r"\bremote(ly)?\b|\bin the office\b|\bin-office\b|\bfrom home\b|\bhybrid\b|\bwfh\b"
        r"|\boffice \w+ days\b|\bdays a week in\b|\breturn-to-office\b",
    ),
    (
        "relationship",
        r"\b(dating|engaged|married|divorced|single|broke up|split up|girlfriend|boyfriend"
        r"|seeing someone)\b",
    ),
    (
        "employer",
        r"\bworks (as|at|for)\b|\bjob\b|\bemployer\b|\bjoined\b|\bhired\b|\bworking (as|at|for)\b",
    ),
    ("travel", r"\b(flying|flight|trip|travell?ing|holiday|vacation) (to|in)\b|\bvisiting\b"),
    ("diet", r"\b(vegetarian|vegan|pescatarian|keto|kosher|halal|gluten-free)\b"),
)
# Frames that hold one value at a time: a second value replaces or contradicts the first.
# ("travel" is not one: a person can fly to two places.)
SINGLE_VALUED_FRAMES = frozenset({"residence", "employer", "diet", "relationship", "work mode"})
_FRAME_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in _FRAMES)

# "from X to Y", "instead of X", "stopped X", "replaced X with Y": X is the old value.
_OLD_VALUE = re.compile(
    r"\bfrom (?:the |a |an |their |his |her )?(.+?)(?= to\b| in\b| for\b|[,;:.]|$)"
    r"|\binstead of (?:the |a |an )?(.+?)(?=[,;:.]|$)"
    r"|\b(?:stopped|quit|dropped|cancell?ed|left|gone off|gave up|no longer|ditched|broke up with"
    r"|split up with|sold|not)\s+(?:using |doing |eating |drinking |going to "
    r"|the |a |an |their |his |her )?"
    r"(.+?)(?=[,;:.]| in \w+ \d| in (?:19|20)\d\d| to focus| because| after| so\b|$)"
    r"|\bafter trying (?:the |a |an )?(.+?)(?=[,;:.]|$)"
    r"|\b(?:replaced|swapped|traded in) (?:the |a |an |their |his |her |old )*(.+?)"
    r"(?= with\b| for\b|[,;:.]|$)",
    re.IGNORECASE,
)
# "a new manager", "New half-marathon PB": the noun after "new" names the slot that changed.
_NEW_SLOT = re.compile(r"\bnew ([\w-]+(?: [a-z][\w-]*)?)", re.IGNORECASE)

_WORD = re.compile(r"[A-Za-zÀ-ÿ0-9£€$%+][\wÀ-ÿ'’+.&/%-]*[\wÀ-ÿ+%]|[A-Za-zÀ-ÿ0-9]")
_MONEY = re.compile(r"([£$€])\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|bn)?\b", re.IGNORECASE)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?(%|percent|per cent)")
_DURATION = re.compile(r"\b(\d{1,2}):(\d{2}):(\d{2})\b")
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s?(am|pm)\b|\b(\d{1,2}):(\d{2})\b", re.IGNORECASE)
_MONTH_RX = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s?[-–]\s?(\d{{1,2}})(?:st|nd|rd|th)?)?\s+(?:of\s+)?"
    rf"({_MONTH_RX})\b|\b({_MONTH_RX})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s?[:,]?\d{{2}})",
    re.IGNORECASE,
)
# "no calls before 11": a bare hour after a time preposition is a clock time.
_BARE_HOUR = re.compile(r"\b(?:before|after|until|till|from|at) (\d{1,2})\b(?![:.,]?\d|\s?%)", re.I)
_ORDINAL = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
_NUMBER = re.compile(r"(?<![\w.:£$€])(\d+(?:[.,]\d+)*)(?:\s?-\s?|\s)?([a-z]+)?", re.IGNORECASE)
_NUMWORD = re.compile(
    r"\b(" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b\s*([a-z]+)?", re.I
)
# (suffix, replacement, letters that must remain)
_SUFFIXES = (
    ("ies", "y", 2), ("ied", "y", 2), ("ying", "y", 2), ("ing", "", 3), ("ed", "", 3),
    ("es", "", 2), ("s", "", 3),
)  # fmt: skip


def stem(word: str) -> str:
    """A light suffix stripper: enough to match lives/live/living or classes/class."""
    w = word.lower().strip("'’.")
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    if not w.isalpha() or len(w) < 3:
        return w
    for suffix, replacement, keep in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= keep and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + replacement
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":  # stopped -> stopp -> stop
        w = w[:-1]
    if len(w) >= 3 and w.endswith("e"):  # live/lives/living all end as "liv"
        w = w[:-1]
    return w


# Verbs too general to make two items one fact ("likes jazz" vs "likes classical music").
LIGHT_VERBS = frozenset(
    stem(w)
    for w in _wordlist(
        """
        like love enjoy prefer hate dislike use own play eat drink watch read listen want need
        work live go take buy wear speak learn study drive have doesn't don't won't can't never
        """
    )
)


def words(text: str) -> list[str]:
    """Surface tokens in order, punctuation dropped; hyphenated words kept whole."""
    return _WORD.findall(text)


def _bare(tok: str) -> str:
    return re.sub(r"['’]s$", "", tok)


def content_stems(tokens: Iterable[str]) -> frozenset[str]:
    """Stems of the words that carry meaning; a number glued to a unit is split off."""
    out: set[str] = set()
    for tok in tokens:
        low = _bare(tok.lower())
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

    def free(span: tuple[int, int]) -> bool:  # not already read as a richer value
        return all(span[1] <= a or span[0] >= b for a, b in used)

    for m in _MONEY.finditer(text):
        mult = {"k": 1e3, "m": 1e6, "bn": 1e9}.get((m.group(3) or "").lower(), 1.0)
        add("money", _fmt(_num(m.group(2)) * mult), m.span())
    for m in _PERCENT.finditer(text):
        if free(m.span()):
            add("percent", _fmt(_num(m.group(1))), m.span())
    for m in _DURATION.finditer(text):
        add("duration", m.group(0), m.span())
    for m in _DAY_MONTH.finditer(text):
        if not free(m.span()):
            continue
        if m.group(3):
            month = MONTHS[m.group(3).lower()]
            for day in (m.group(1), m.group(2)):  # "22-29 August" holds two dates
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
        if tok in MONTHS and tok != "may":  # "may" is mostly the verb
            vals.setdefault("month", set()).add(MONTHS[tok])
        day = tok[:-1] if tok.endswith("s") else tok
        if day in WEEKDAYS:
            vals.setdefault("weekday", set()).add(WEEKDAYS[day])
        elif day in _DAY_SETS:  # "on weekdays" names a set of days
            vals.setdefault("weekday", set()).update(_DAY_SETS[day])
    if re.search(r"\bmay\b(?=\s+(\d|(19|20)\d\d))|\bin may\b", low):
        vals.setdefault("month", set()).add("may")
    for d in vals.get("date", set()):
        vals.setdefault("month", set()).add(d.split()[1])
    for m in _NUMBER.finditer(text):
        if free(m.span(1)):
            unit = m.group(2)
            key = "n:" + (stem(unit) if unit and unit.lower() not in STOPWORDS else "")
            vals.setdefault(key, set()).add(_fmt(_num(m.group(1))))
    for m in _NUMWORD.finditer(low):
        unit = m.group(2)
        key = "n:" + (stem(unit) if unit and unit not in STOPWORDS else "")
        vals.setdefault(key, set()).add(_fmt(float(NUMBER_WORDS[m.group(1)])))
    return {k: frozenset(v) for k, v in vals.items()}


def value_conflicts(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> list[str]:
    """Types where each side holds a value the other lacks (a changed number, date, day...)."""
    out = [kind for kind in a.keys() & b.keys() if a[kind] - b[kind] and b[kind] - a[kind]]
    if "date" in out and "month" in out:
        out.remove("month")  # 15 May vs 28 April is one change, not two
    return sorted(out)


def shared_values(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> int:
    return sum(len(a[k] & b[k]) for k in a.keys() & b.keys())


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


def _is_verbish(low: str) -> bool:
    return low in SENTENCE_VERBS or low in AUX


def _is_finite_verb(low: str) -> bool:
    """A verb form that follows a subject: 'is', 'owns', 'moved', 'grew' (not 'order')."""
    if low in AUX or low in _IRREGULAR:
        return True
    return low in SENTENCE_VERBS and low.endswith(("s", "ed"))


def _entity_key(tok: str) -> str | None:
    low = _bare(tok).lower()
    if low in RELATIONS:
        return RELATIONS[low]
    if low.endswith("s") and low[:-1] in RELATIONS:  # "friends", "cousins"
        return RELATIONS[low[:-1]]
    if _IN_LAW.match(low):
        return low
    return "user" if low == "user" else None


def is_relation(key: str) -> bool:
    return key in _RELATION_KEYS or bool(_IN_LAW.match(key))


def _capitalised(tok: str) -> bool:
    bare = _bare(tok)
    low = bare.lower()
    if not bare[:1].isupper() and not re.search(r"[a-z][A-Z]", bare):
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
    if i > 0 or _bare(tok) != tok:
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
        if _entity_key(toks[i]) is None and _verb_after_subject(low, lows[i - 1]):
            return i, False
    return len(toks), True


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


def analyse(text: str, lowercase_vocab: frozenset[str] = frozenset()) -> Analysis:
    """Parse one item; `lowercase_vocab` holds words seen in lower case elsewhere in the case."""
    matches = list(_WORD.finditer(text))
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
            low = _bare(tok).lower()
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
        low = _bare(tok).lower()
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
    existence: set[str] = set()
    if subject <= {"user"} and (split == 0 or subject):
        existence = _existence_subjects(body)
        subject |= existence
    return Analysis(
        text=text,
        tokens=tuple(_bare(t).lower() for t in toks),
        stems=content_stems(toks),
        subject=frozenset(subject),
        subject_is_person=any(x == "user" or x in sure or is_relation(x) for x in subject),
        subject_stems=content_stems(body[:split]),
        predicate_stems=content_stems(body[split:]),
        entities=frozenset(entities),
        names=frozenset(names),
        values=typed_values(said),
        cues=_cues(text) | ({"corrected"} if fix else set()),
        slot_words=_phrase_stems(_NEW_SLOT, text),
        old_words=_phrase_stems(_OLD_VALUE, text)
        | (content_stems(words(fix.old)) if fix else frozenset()),
        negated=_negated(text),
        frames=frozenset(name for name, rx in _FRAME_RES if rx.search(text)),
        preference=_preference(text),
        existence=bool(existence),
        tentative=bool(_TENTATIVE.search(text)),
        planned=bool(_PLAN.search(text)),
        hedged=bool(_HEDGE.search(text)),
        exception=bool(_EXCEPTION.search(text)),
        additive=bool(_ADDITIVE.search(text)),
    )


def _cues(text: str) -> frozenset[str]:
    cues = {name for name, rx in _CUE_RES if rx.search(text)}
    if "new" in cues and not _new_value_cue(text):
        cues.discard("new")
    return frozenset(cues)


def _new_value_cue(text: str) -> bool:
    """'Has a new manager' reports a changed value; '... for the new admin panel' names a new
    thing, and 'no time with the new job' only mentions one."""
    lows = [w.lower() for w in words(text)]
    for i, low in enumerate(lows):
        if low == "new":
            before = [w for w in lows[max(0, i - 2) : i] if w not in DETERMINERS]
            if not before or before[-1] not in PREPOSITIONS:
                return True
    return False


def _preference(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    m = _PREFERENCE_PAIR.search(text)
    if not m:
        return None
    return content_stems(words(m.group(1))), content_stems(words(m.group(2)))


def _negated(text: str) -> frozenset[str]:
    """Verbs under a negation ("won't renew"); "not paragraphs" negates no verb."""
    out = set()
    for m in _NEGATION.finditer(text):
        neg, word = m.group(1).lower(), m.group(2).lower()
        if neg in ("not", "never", "no longer") and word not in SENTENCE_VERBS:
            continue
        out.add(stem(word))
    return frozenset(out)


def lowercase_vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """Words that appear in lower case somewhere in the texts (so they are not names)."""
    return frozenset().union(*(_lowercase_words(text) for text in texts))


@lru_cache(maxsize=16384)
def _lowercase_words(text: str) -> frozenset[str]:
    return frozenset(tok.lower() for tok in words(text) if tok[:1].islower())


def analyse_in_case(text: str, lowercase_vocab: frozenset[str]) -> Analysis:
    """analyse(text, lowercase_vocab), cached: dedup shows the same stored items again and again.
    The vocabulary only decides whether a capitalised first word is a name, so the cache key is
    the text and whether its first word is in the vocabulary."""
    first = _WORD.search(text)
    return _analyse_cached(text, first is not None and first.group().lower() in lowercase_vocab)


@lru_cache(maxsize=16384)
def _analyse_cached(text: str, first_word_common: bool) -> Analysis:
    first = _WORD.search(text)
    vocab = frozenset({first.group().lower()}) if first and first_word_common else frozenset()
    return analyse(text, vocab)
