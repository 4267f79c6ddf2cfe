"""Corrections said in conversation: "March 10, not March 3", "Sorry, May, not April".

A correction names a new value and the old one it replaces. When the sentence says what the
value is of ("The appointment is March 10, not March 3"), it is the corrected fact once the
"not ..." part is taken out. A bare correction ("May, not April") fixes an earlier sentence of
the conversation that holds the old value: that sentence with the new value in its place is
the corrected fact. Either way the dedup judge then supersedes the record that held the old
value (the same slot, another value). A correction that gives its new value only ("Sorry, it
leaves at 7:40") is read by core/restated.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory_pipelines.core.judge_lexicon import NUMBER_WORDS

# a word or a value, a number with its thousands ("£2,300", "1,250.50") whole
WORDISH = r"[\w$£€][\w$£€:/'-]*(?:(?<=\d),\d{3}(?!\d))*(?:\.\d+[a-zA-Z]*)?"
# ", not March 3", " not Monday", "; not April": the old value, up to 3 words, at a clause end.
_NOT_OLD = re.compile(
    rf"\s*(?:,|;|-|–|—)?\s+(?:and\s+)?not\s+(?:on\s+|in\s+|at\s+|the\s+)?"
    rf"(?P<old>{WORDISH}(?: {WORDISH}){{0,2}}?)(?=\s*(?:[.,;!?)]|$))",
    re.IGNORECASE,
)
OPENER = re.compile(
    r"^\W*(?:(?:and|but|sorry|oops|whoops|ugh|argh|oh|ah|actually|correction|no|wait|my bad"
    r"|i mean|i meant|it's|its|it is"
    r"|that's|that is|make (?:that|it))(?:\W+|$))*",
    re.IGNORECASE,
)
_APOLOGY = re.compile(
    r"^\W*(?:(?:sorry|oops|whoops|ugh|argh|oh|ah|correction|my bad|wait|actually)\W+)+", re.I
)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


_LAST_CLAUSE = re.compile(r"[,;:–—]\s+|\s+-\s+")
_DAY_OF_MONTH = re.compile(r"\d{1,2}(?:st|nd|rd|th)", re.IGNORECASE)
_IN_ITS_PLACE = frozenset(["now", "instead"])  # "Nutmeg now, not Pepper"
_CAPITALISED = re.compile(r"(?!I\b)[A-Z][\w'-]*")
_ARTICLE_END = re.compile(r"(?:^|\s)(?:the|a|an)$", re.IGNORECASE)  # "I meant the" Bramwell ...


@dataclass(frozen=True)
class Correction:
    new: str
    old: str
    bare: bool  # the sentence says nothing but the two values
    span: tuple[int, int] = (0, 0)  # where "not <old>" lies in the sentence
    about: str = ""  # what a bare repair says it is of: "scratch that on the chairs, 18"


# "tomorrow, sorry, Friday": a day said by its distance from today is a date like a weekday
_RELATIVE_DAYS = frozenset(["today", "tonight", "tomorrow", "yesterday"])


def value_kind(value: str) -> str:
    low = value.lower()
    if any(ch.isdigit() for ch in low) or low in NUMBER_WORDS:
        return "number"
    if low[:3] in _MONTHS or low[:3] in _DAYS or low in _RELATIVE_DAYS:
        return "date"
    return "name" if value[:1].isupper() else "word"


def _form(value: str) -> str:
    """A value's shape: its unit after the digits ("5ml", "7.5ml": "ml"), "" for bare digits,
    "word" for a number word."""
    m = re.fullmatch(r"[$£€]?\d[\d.,:/]*(?P<unit>[a-zA-Z%]*)", value)
    return m.group("unit").lower() if m else "word"


def is_number(value: str) -> bool:
    """Whether a value is a number (digits or a number word): specific enough that a
    correction of it finds the sentence that said it by the value alone."""
    return value_kind(value) == "number"


def correction(sentence: str) -> Correction | None:
    """The new and old value of a correction, when the sentence is one: both of one kind (a
    number or date, a month or weekday, a name), so "tea, not coffee" is a preference, not a
    correction of an earlier value. The new value is as many words as the old, just before
    "not" ("the appointment is March 10, not March 3")."""
    for m in _NOT_OLD.finditer(sentence):
        old = m.group("old")
        before = sentence[: m.start()].split()
        n = len(old.split())
        # The new value right before "not", or before an aside set off by commas: "It's
        # Saturday, love, not Friday".
        for skip in (0, 1, 2):
            if len(before) < n + skip:
                continue
            # ... or before "now" or "instead": "she's Nutmeg now, not Pepper"; or before what
            # it is for: "it's 25mg to start not 50", "8kg to go not 10"
            aside = (
                before[-skip - 1].endswith(",")
                or (skip == 1 and before[-1].strip(",").lower() in _IN_ITS_PLACE)
                or (skip == 2 and before[-2].lower() == "to")
            )
            if skip and not aside:
                continue
            # A day of the month is said with its month on one side only: "by 3 October,
            # not the 30th" (the new value one word longer).
            width = n + 1 if _DAY_OF_MONTH.fullmatch(old) and len(before) > n + skip else n
            new = " ".join(before[len(before) - skip - width : len(before) - skip])
            new = new.strip(" ,;:-—–")
            if width > n and not any(w.lower()[:3] in _MONTHS for w in new.split()):
                width, new = n, " ".join(before[len(before) - skip - n : len(before) - skip])
                new = new.strip(" ,;:-—–")
            if not new or value_kind(new) != value_kind(old) or value_kind(new) == "word":
                continue
            if value_kind(new) == "name" and not skip:
                # a name of more words than the old one said short: "I meant the Bramwell
                # Theatre, not Lindqvist" (of "the Lindqvist Hall")
                while len(before) > width + 1 and _CAPITALISED.fullmatch(before[-width - 1]):
                    width += 1
                new = " ".join(before[len(before) - width :]).strip(" ,;:-—–")
            width = _listed(before, len(before) - skip, width, old)
            new = " ".join(before[len(before) - skip - width : len(before) - skip])
            new = new.strip(" ,;:-—–")
            rest = " ".join(before[: len(before) - skip - width])
            # only the clause that gives the new value says what it is of: "scratch that, I
            # misread his text, it's Friday not Wednesday" names nothing but its values
            rest = _LAST_CLAUSE.split(rest)[-1]
            rest = _ARTICLE_END.sub("", OPENER.sub("", rest)).strip(" ,;:-—–")
            return Correction(new=new, old=old, bare=not rest, span=(m.start(), m.end()))
    return _old_first(sentence)


def _listed(before: list[str], end: int, width: int, old: str) -> int:
    """The width of the new value with the values listed before it ("tuesdays and fridays, not
    mondays": the days the week now has), when the old one is a single day or number."""
    start = end - width
    kind = value_kind(old)
    if width != 1 or kind not in ("date", "number") or start < 2:
        return width
    if before[start - 1].lower() not in ("and", "&") or value_kind(before[start - 2]) != kind:
        return width
    start -= 2
    while (
        start >= 1
        and before[start - 1].endswith(",")
        and value_kind(before[start - 1][:-1]) == kind
    ):
        start -= 1
    return end - start


_VALUE = rf"{WORDISH}(?: {WORDISH}){{0,2}}?"
_END = r"(?=\s*(?:[.,;!?)]|$))"
# The old value before the new one: "not Tuesday - Wednesday", "I said Lisbon earlier but it's
# actually Porto", said at the start of the sentence after its cue.
_OLD_FIRST = (
    re.compile(rf"^\W*(?:(?:sorry|oops|whoops|ugh|oh|ah|no|wait|my bad|typo|correction)\W+)*"
               rf"not (?:on |in |at |the )?(?P<old>{_VALUE})\s*(?:[,;:–—-]|but)\s+"
               rf"(?:it's |it is |rather |but )?(?:on |in |at |the )?(?P<new>{_VALUE}){_END}",
               re.IGNORECASE),
    re.compile(rf"\b(?:i|we) (?:said|wrote|put|told you) (?:on |in |at |the )?(?P<old>{_VALUE})"
               rf"(?: earlier| before)?,? (?:but |and )?(?:it's|it is|i meant|we meant)"
               rf" (?:actually |really )?(?:on |in |at |the )?(?P<new>{_VALUE}){_END}",
               re.IGNORECASE),
)  # fmt: skip


def _old_first(sentence: str) -> Correction | None:
    """A correction that names the old value first ("not Tuesday - Wednesday, sorry", "sorry
    I said Lisbon earlier but it's actually Porto"): bare, both values of one kind."""
    for rx in _OLD_FIRST:
        m = rx.search(sentence)
        if m is None:
            continue
        new, old = m.group("new"), m.group("old")
        if value_kind(new) == value_kind(old) != "word" and new.lower() != old.lower():
            return Correction(new=new, old=old, bare=True, span=m.span("old"))
    return None


# A repair said on the go: the value, then "sorry", "no", "I mean" and the right one: "I take
# 50 milligrams of sertraline, sorry, 100", "Our rate is 4.2 percent. Actually no, 3.9". The
# new value is a number or a date word; the old one is the last value of its kind before it.
_REPAIR = re.compile(
    r"(?:^|[,;—–-]|\.)\s*(?:(?:sorry|no|actually|wait|i mean|i meant|or rather|make that|make it|"
    r"correction|scratch that(?:\s+(?:on|about|for)\s+(?:the\s+)?[a-z]+)?)(?:,|\s)\s*)+"
    r"(?P<new>[$£€]?\w+(?:(?<=\d),\d{3}(?!\d))*(?:[.:/]\w+)*"
    r"(?:\s+(?:morning|afternoon|evening|night))?)\s*"
    r"(?=[,;!?)]|\.(?:\s|$)|$)",
    re.IGNORECASE,
)


_SCRATCHED = re.compile(r"scratch that\s+(?:on|about|for)\s+(?:the\s+)?(?P<about>[a-z]+)", re.I)


def _values_of_kind(text: str, kind: str) -> list[re.Match[str]]:
    return [
        m for m in re.finditer(WORDISH, text) if kind != "word" and value_kind(m.group()) == kind
    ]


def repair(sentence: str) -> tuple[str, Correction] | None:
    """A sentence that repairs its own value, as it should have been said, and the repair
    ("... 50 milligrams of sertraline, sorry, 100, the doctor raised it" -> "... 100
    milligrams of sertraline, the doctor raised it"); a bare repair ("Actually no, 3.9,
    sorry") comes back with its old value empty, for an earlier sentence (repair_earlier)."""
    for m in _REPAIR.finditer(sentence):
        new = m.group("new").rstrip(".")
        kind = value_kind(new)
        if kind in ("word", "name"):
            continue
        olds = [v for v in _values_of_kind(sentence[: m.start()], kind) if v.group() != new]
        if not olds:
            if OPENER.sub("", sentence[: m.start()]).strip(" ,;:-—–"):
                continue  # said after words that hold no value of its kind: no repair
            said_of = _SCRATCHED.search(sentence, 0, m.end())
            about = said_of.group("about") if said_of else ""
            return sentence, Correction(new=new, old="", bare=True, about=about)
        old = olds[-1]
        tail = sentence[m.end() :].lstrip()
        tail = re.sub(r"^(?:,\s*(?:sorry|my bad|oops)\b)?", "", tail, flags=re.I)
        fixed = (sentence[: old.start()] + new + sentence[old.end() : m.start()] + tail).strip()
        return fixed[:1].upper() + fixed[1:], Correction(new=new, old=old.group(), bare=False)
    return None


def repair_earlier(new: str, earlier: Sequence[str]) -> tuple[int, str] | None:
    """(index, rewritten sentence) of the latest earlier sentence holding a value of the kind
    of a bare repair, its last such value put right and still named ("Our rate is 4.2
    percent" + "Actually no, 3.9" -> "Our rate is 3.9, not 4.2, percent")."""
    kind = value_kind(new)
    for i in range(len(earlier) - 1, -1, -1):
        olds = [v for v in _values_of_kind(earlier[i], kind) if v.group() != new]
        if not olds:
            continue
        # a value of its own form first: "7.5ml" puts right "5ml", not "twice" after it
        olds = [v for v in olds if _form(v.group()) == _form(new)] or olds
        put_right = apply_to_earlier(Correction(new, olds[-1].group(), True), [earlier[i]])
        if put_right is not None:
            return i, put_right[1]
    return None


def named_values(new: str, sentences: Sequence[str]) -> list[str]:
    """The values of the kind of a bare repair's `new` that other sentences of its turn name,
    last first: the turn may say which value was wrong ("Wait no, 41!! 14 was our old
    place")."""
    kind = value_kind(new)
    found = [v.group() for s in sentences for v in _values_of_kind(s, kind)]
    return [v for v in reversed(found) if v != new]


def corrected(sentence: str, fix: Correction) -> str:
    """A sentence that states its value itself, its apology taken off ("Sorry, the appointment
    is March 10, not March 3" -> "the appointment is March 10, not March 3"): the old value
    stays named, so the judge sees which record it replaces."""
    return _APOLOGY.sub("", sentence).strip() or sentence


def apply_to_earlier(fix: Correction, earlier: Sequence[str]) -> tuple[int, str] | None:
    """(index, rewritten sentence) of the latest earlier sentence holding the old value, the
    new value in its place and the old one still named ("We fly in April" + "May, not April"
    -> "We fly in May, not April,"), so the judge sees which record it replaces."""
    # a time said with its half of the day: "it's 8:30, not 8" puts right "for 8pm"
    # A name said short puts right the whole of it ("Bramwell Theatre, not Lindqvist" of "the
    # Lindqvist Hall"), and words of the new name said before the old stay said once ("Tomasz
    # Wrobel, not Wrona" of "Tomasz Wrona").
    head = tail = ""
    members = [w.strip(",") for w in fix.new.split() if w.lower() not in ("and", "&")]
    listed = len(members) > 1 and re.search(r"\s(?:and|&)\s", fix.new) is not None
    if listed:
        # a list put right whole: "tuesdays and fridays, not mondays" of "i wfh mondays and
        # fridays" names the old list, not its one day
        own = "|".join(re.escape(w) for w in members)
        joint = r"(?:\s*,\s*|\s+and\s+|\s*&\s*)"
        head, tail = rf"(?:(?:{own}){joint})*", rf"(?:{joint}(?:{own}))*"
    elif len(fix.new.split()) > len(fix.old.split()):
        own = "|".join(re.escape(w) for w in fix.new.split())
        head, tail = rf"(?-i:(?:(?:{own})\s+)*)", r"(?-i:(?:\s+[A-Z][a-z]+)*)"
    # the old value whole, a currency sign before it too ("£2,300": no word boundary before £)
    start = r"(?<![\w$£€])"
    # a bare number put right by one with its unit: "25mg to start, not 50" of "50mg once a day"
    unit = _form(fix.new) if _form(fix.old) == "" and _form(fix.new) not in ("", "word") else ""
    half = rf"(?P<half>am|pm{'|' + re.escape(unit) if unit else ''})?"
    rx = re.compile(rf"{head}{start}{re.escape(fix.old)}{half}\b{tail}", re.IGNORECASE)
    for i in range(len(earlier) - 1, -1, -1):
        if rx.search(earlier[i]):

            def put(m: re.Match[str]) -> str:
                half = m.group("half") or ""
                if listed:
                    return f"{fix.new}, not {m.group()},"
                if unit and half.lower() == unit.lower():
                    return f"{fix.new}, not {fix.old}{half},"
                return f"{fix.new}{half}, not {fix.old}{half},"

            fixed = rx.sub(put, earlier[i], count=1)
            return i, re.sub(r",(?=\s*(?:[.,;:!?)]|$))", "", fixed)
    return None


def without_old(text: str) -> tuple[str, str] | None:
    """(the text without the old value it names, that old value) for a corrected fact ("Zara's
    recital is in May, not April, she plays Bach" -> ("Zara's recital is in May, she plays
    Bach", "April")); None when it names none. The memory keeps what is true now; the judge
    still reads the old value to find the record it replaces (core/extract.py)."""
    m = _NOT_OLD.search(text)
    if m is None:
        return None
    rest = text[m.end() :]
    # "Dr. Mbatha, not Mbeki, over at the clinic": the comma after the old value was put there
    # with it, unless a clause starts after it ("in May, not April, she's doing Bach")
    after = _CLAUSE_START.match(rest)
    if rest.startswith(",") and m.group().lstrip().startswith(",") and after is None:
        rest = rest[1:]
    return (text[: m.start()] + rest).strip(), m.group("old")


_CLAUSE_START = re.compile(
    # a capital starts a clause, but a month or weekday goes on the date ("the 21st, May")
    r",\s*(?:(?!(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
    r"[a-z]*\b)[A-Z]|(?:i|we|you|he|she|they|it|so|and|but|which|who|because|since|as|though"
    r"|although|that|this|there)\b)"
)
