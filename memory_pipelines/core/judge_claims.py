"""What a statement claims, for the dedup judge: the stance of each clause, list members, and
which clause of a change brings the new value in.

Readings that words alone get wrong:

- **Stance.** "Prefers email, never by phone" and "Does not want phone calls" both hold a
  negative clause about the phone: the same claim said another way, so a merge. "Wants phone
  calls now" beside "Does not want phone calls" holds the same content with the opposite
  stance: a reversal. Each clause (split at , ; : and "but") gets a polarity (a negation or a
  verb of aversion makes it negative) and its content stems; two statements agree or oppose
  where a clause of each shares content.
- **Lists.** "Ships to Spain, France and Italy" beside "Ships to Spain and France" is the same
  slot with one more member: the value grew, so the new item replaces the old (a merge would keep
  the old wording and lose Italy). Members are the heads of a coordination ("A, B and C"); a
  piece that opens with a verb is a clause, not a member.
- **Denial.** "Refuses to fly red-eyes" and "Avoids overnight flights" both deny in their main
  clause (`Claims.denies`): with nothing else differing, one claim in other words.
- **The clauses of a change.** "Now wants aisle seats; the window is a pain with her knee": the
  clause with the cue holds the new value, the others name the old value or the reason
  (`change_clauses`), which points at the stored item that held the old value.

General English only (negators, verbs of aversion, coordinators); no word taken from a case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memory_pipelines.core.judge_cues import CUE_RES, IDIOM_NOT
from memory_pipelines.core.judge_lexicon import (
    AUX,
    LIGHT_VERBS,
    PREPOSITIONS,
    SENTENCE_VERBS,
    STOPWORDS,
    content_stems,
    stem,
    words,
)

# A clause is negative when a negator or a verb of aversion governs it.
_NEGATIVE = re.compile(
    r"\b(?:not|never|no|none|nobody|nothing|neither|nor|without|no longer|any ?more"
    r"|cannot|\w+n['’]t|dislikes?|disliked|hates?|hated|avoids?|avoided|avoiding|refuses?"
    r"|refused|against|stopped|quit|gave up|given up|rather not|can't stand|allergic)\b",
    re.IGNORECASE,
)
# A statement that denies or rejects: a negator or a verb of aversion, not "against" or "without"
# (prepositions) nor "stopped" (a change).
_DENIAL = re.compile(
    r"\b(?:not|never|no|cannot|\w+n['’]t|dislikes?|hates?|avoids?|refuses?|rather not"
    r"|can't stand|allergic|steers? clear)\b",
    re.IGNORECASE,
)
_AVERSION_LABEL = re.compile(
    r"^\W*(?:allerg(?:y|ies)|allergic to|dislikes?|hates?|avoids?|can't (?:have|eat|stand))\s*:",
    re.IGNORECASE,
)
# "set off by not sleeping", "fined for not paying": a cause or a reason named, no denial.
_CAUSE_NOT = re.compile(r"\b(by|from|for|of|about|after)\s+not\s+(\w+ing)\b", re.IGNORECASE)


# "a huge part of her life, not just a hobby", "not only cheaper": more is said, nothing denied.
_NOT_ONLY = re.compile(r"\bnot\s+(?:just|only|merely|simply)\b", re.IGNORECASE)


def without_cause_not(text: str) -> str:
    """The text with "not" taken out of a cause or reason named by a gerund, out of "not
    just" and "not only" (which add rather than deny), and the negator out of "can't wait"
    and its kin (`judge_cues.IDIOM_NOT`)."""
    return IDIOM_NOT.sub("", _NOT_ONLY.sub(" ", _CAUSE_NOT.sub(r"\1 \2", text)))


CLAUSE_SPLIT = re.compile(r"[,;:()]|\s[-–—]\s|\bbut\b|\bwhereas\b|\bthough\b", re.IGNORECASE)
# Words that carry the stance rather than the content.
STANCE_WORDS = content_stems(
    words(
        """
        not never no none nobody nothing neither nor without longer anymore cannot dislike
        dislikes hate hates avoid avoids refuse refuses against stopped quit gave given rather
        stand allergic prefer prefers prefered like likes love loves want wants happy fine ok
        okay keen glad willing now again still always usually
        """
    )
)
_HEAD = r"[^\W\d][\w'’+.&-]*"
_MEMBER = rf"{_HEAD}(?: {_HEAD}){{0,2}}"
_DET = r"(?:(?:the|a|an|my|our|their|his|her|its|some) )?"
# "A, B and C", "A and B", "A or B", "A & B": the last word of each piece is its head.
# The preposition of the first member may be said again: "to penicillin and to amoxicillin".
_AGAIN = r"(?:(?:to|in|on|at|for|with|from|of|by) )?"
_LIST = re.compile(
    rf"((?:{_MEMBER}, )*)({_MEMBER}),? (?:and|or|&|plus) {_AGAIN}{_DET}({_HEAD})", re.IGNORECASE
)
# The joining word every list holds, looked for first: _LIST tries a member at every word of a
# text (49 µs a text), and most texts list nothing.
_JOINED = re.compile(r" (?:and|or|&|plus) ", re.IGNORECASE)
# One more member after a list: "sells chutneys and jams as well as his pickled beetroot".
# (The last member may go on for a word or two: "soaps and wax melts as well as ...".)
_AS_WELL_AS = re.compile(
    rf"^(?: {_HEAD}){{0,2}}?,? as well as {_AGAIN}{_DET}((?:{_HEAD} ){{0,2}}{_HEAD})",
    re.IGNORECASE,
)
# An aside between the joining word and the last member ("English, Spanish and, after a year
# of lessons, decent Italian"): read without it, the list is whole.
_ASIDE_AFTER_JOIN = re.compile(r"\b(and|or|plus),\s[^,;:()]{1,48},\s", re.IGNORECASE)
# A further clause that adds one more of what the list holds: "Plays rugby and squash, and
# recently joined a climbing gym too".
_MORE_AFTER = re.compile(
    r"^[^,;]*[,;]\s.*\b(?:too|also|as well)\b(?!\s+(?:as|because|since)\b)", re.IGNORECASE
)
# "Priya left", "Sam has retired", "Farida moved to Dublin": a name followed by a verb of leaving
# is an old value.
_DEPARTED = re.compile(
    r"\b([A-Z][\w'’-]+)(?: has| had| have)? (?:(?:left|quit|retired|resigned|departed|moved on"
    r"|moved to|stepped down|(?:moved|changed|switched) (?:teams|departments|jobs))\b"
    # ... "is gone" where the clause ends ("has gone vegan" is a change of her own)
    r"|(?:is|has) gone(?=\s*(?:[,.;:!]|$| now\b))|is out(?=\s*(?:[,.;:!]|$)))"
)


# A word that joins one more to the members listed after it ("joined A and B", "on top of A
# and B", "as well as A and B").
_ADDS_TO = re.compile(
    r"\b(?:joined|joins|on top of|as well as|along with|in addition to|alongside|added to)\b"
    r"(?: \w+){0,2}? [\w'’-]+,? (?:and|&) ",
    re.IGNORECASE,
)


LIST_SLOT_COS = 0.55  # cosine for "one slot" when the words around a list differ
BARE_VALUE_WORDS = 2  # a stored item saying no more words than this beside a value is the value
OPPOSE_SHARE = 0.75  # share of the longer clause two opposite clauses must have in common


@dataclass(frozen=True)
class Clause:
    negative: bool
    content: frozenset[str]  # content stems without stance words or light verbs


@dataclass(frozen=True)
class Claims:
    clauses: tuple[Clause, ...]
    members: frozenset[str]  # heads of a coordination, empty when the text lists nothing
    departed: frozenset[str]  # stems of names said to have left

    denies: bool = False  # the main clause denies or rejects something ("Avoids ...")
    # the text adds to what it lists: "Chen joined Lea and Faisal", "a shellfish allergy on
    # top of the latex and ibuprofen ones"
    adds_to_list: bool = False
    # a clause after the list adds one more ("..., and he joined a climbing gym too")
    adds_after_list: bool = False


@lru_cache(maxsize=16384)
def claims(text: str) -> Claims:
    """The clauses with their stance, the list members and the departed names of one text."""
    clauses = []
    # A label of aversion holds the stance of what follows it ("Allergies: peanuts and
    # penicillin" says "allergic to peanuts and penicillin").
    label = _AVERSION_LABEL.match(text)
    for n, part in enumerate(CLAUSE_SPLIT.split(text[label.end() :] if label else text)):
        content = content_stems(words(part)) - STANCE_WORDS - LIGHT_VERBS
        if content:
            negative = (label and n == 0) or bool(_NEGATIVE.search(without_cause_not(part)))
            clauses.append(Clause(bool(negative), frozenset(content)))
    members: set[str] = set()
    listed = _ASIDE_AFTER_JOIN.sub(r"\1 ", text)
    last_end = None
    for m in _LIST.finditer(listed) if _JOINED.search(listed) else ():
        pieces = [p for p in m.group(1).split(", ") if p] + [m.group(2), m.group(3)]
        after = words(listed[m.end() :])[:2]
        heads_raw = [_last_word(p) for p in pieces]
        # "the team knows it and the docs are ...": clauses joined, not a list of things (a
        # piece ends in a verb or its object pronoun, or a verb follows the last member, or a
        # later piece opens with one: "4 to 18 April, flying into Osaka and ...").
        if (
            any(map(_is_verb, heads_raw))
            or any(_is_verb(ws[0]) for p in pieces[1:] if len(ws := words(p)) > 1)
            or any(w.lower() in _OBJECTS for p in pieces for w in words(p)[-1:])
            or any(map(_is_verb, after))
            # "stress relief and fashion fuels her creativity": a word between the last member
            # and a possessive or object pronoun is a verb, so the "and" joined clauses
            or (
                len(after) == 2
                and after[1].lower() in _AFTER_A_VERB
                and after[0].lower() not in PREPOSITIONS
            )
        ):
            continue
        extra = _AS_WELL_AS.match(listed[m.end() :])
        if extra:
            heads_raw.append(_last_word(extra.group(1)))
        heads = {stem(h) for h in heads_raw if h}
        if len(heads) >= 2:
            members |= heads
            last_end = m.end() + (extra.end() if extra else 0)
    departed = {stem(m.group(1)) for m in _DEPARTED.finditer(text)}
    main = next((p for p in CLAUSE_SPLIT.split(text) if p.strip()), "")
    denies = bool(label) or bool(_DENIAL.search(without_cause_not(main)))
    adds = bool(members) and _ADDS_TO.search(text) is not None
    more = last_end is not None and _MORE_AFTER.search(listed[last_end:]) is not None
    return Claims(tuple(clauses), frozenset(members), frozenset(departed), denies, adds, more)


def _is_verb(word: str) -> bool:
    if word[:1].isupper():
        return False  # "Python and Go": a name, not the verb
    low = word.lower()
    return low in AUX or (low in SENTENCE_VERBS and low not in _NOUN_LIKE)


# Verb forms that are as often nouns in a list ("walks and runs" aside): kept as members.
_NOUN_LIKE = frozenset(("walks", "runs", "plays", "drinks", "books", "trips", "calls", "cooking"))


_OBJECTS = frozenset(("it", "them", "him", "her", "us", "me", "this", "that", "there"))
# the person pronouns of _OBJECTS and the possessive determiners: what follows a verb
_AFTER_A_VERB = (_OBJECTS - {"it", "this", "that", "there"}) | frozenset(
    ("his", "their", "my", "our", "your", "its")
)


def _last_word(piece: str) -> str:
    toks = [t for t in words(piece) if t.lower() not in STOPWORDS]
    last = toks[-1] if toks else ""
    return "" if last.lower() in _NO_MEMBER else last


# "Melanie and others roasted marshmallows", "everyone and everything", "so special and
# something he cherishes": words that stand for the rest or for what is not named, never a
# member a list holds (extraction writes "we" as "<name> and others").
_NO_MEMBER = frozenset((
    "others", "everyone", "everybody", "everything", "anyone", "anything", "someone",
    "somebody", "something",
))  # fmt: skip


# "Accountant is Mei", "The caterer is now Green Fork": a slot named before a copula.
_COPULA = re.compile(r"^(.{3,40}?)\s+(?:is|are)\s+(?:now\s+|still\s+)?(.+)$", re.IGNORECASE)


def copular_slot(text: str) -> tuple[frozenset[str], str] | None:
    """(slot stems, value) of "<slot> is <value>", the value up to its first , ; or :."""
    m = _COPULA.match(text.strip())
    if not m:
        return None
    slot = content_stems(words(m.group(1)))
    value = re.split(r"[,;:(]", m.group(2))[0].strip()
    return (slot, value) if slot and value else None


# Cues that bring a new value in ("switched to tea", "now wants aisle seats"), unlike those that
# end the old one ("no longer", "gave up X"), whose clause names the old value.
_REPLACING = frozenset({"switched", "now", "instead", "moved", "new", "started", "settled"})


@lru_cache(maxsize=16384)
def change_clauses(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(new, aside): the content of the clauses where a replacing cue brings a new value in,
    cue words aside, and the content of the other clauses, which often name the old value or
    why it changed: "Now wants aisle seats; the window is a pain" -> ({aisl, seat}, {window,
    pain, knee}). Both empty when no replacing cue is found."""
    new: set[str] = set()
    aside: set[str] = set()
    for part in CLAUSE_SPLIT.split(text):
        content = content_stems(words(part)) - STANCE_WORDS - LIGHT_VERBS
        found = [m for name, rx in CUE_RES if name in _REPLACING and (m := rx.search(part))]
        if found:
            new |= content - content_stems(w for m in found for w in words(m.group(0)))
        else:
            aside |= content
    if not new:
        return frozenset(), frozenset()
    return frozenset(new), frozenset(aside - new)


@dataclass(frozen=True)
class Stance:
    agree: bool  # a negative clause of each shares content: one claim, said twice
    oppose: bool  # a clause of each shares content under opposite stances


def stance(a: Claims, b: Claims, ignore: frozenset[str] = frozenset()) -> Stance:
    """How two texts' clauses relate; `ignore` holds stems that say who, not what (subjects)."""
    agree = oppose = False
    for ca in a.clauses:
        for cb in b.clauses:
            shared = (ca.content & cb.content) - ignore
            sizes = (len(ca.content - ignore), len(cb.content - ignore))
            # Most of the shorter clause: one shared word ("meetings") is a topic, not a claim.
            if not shared or len(shared) < 0.5 * min(sizes):
                continue
            if ca.negative == cb.negative:
                agree = agree or ca.negative
            # A denial beside an assertion is a reversal only when both say the same thing:
            # "Won't deliver orders under £50" restates "Minimum order is £50" with other words.
            elif len(shared) >= OPPOSE_SHARE * max(sizes):
                oppose = True
    return Stance(agree=agree, oppose=oppose)


@dataclass(frozen=True)
class ListChange:
    grew: bool  # the candidate lists every stored member and more
    shrank: bool  # the candidate lists some of the stored members, no others
    # A single stored value grown into a list said in other words: one slot, if at all, by
    # the sentences' nearness alone, not by what the two say around the members.
    by_nearness: bool = False
    # most of the stored members kept and one or more swapped for others ("Chrome, Firefox,
    # Safari and Edge" / "Chrome, Firefox, Safari and IE11")
    swapped: bool = False


def list_change(
    c: Claims,
    e: Claims,
    c_stems: frozenset[str],
    e_stems: frozenset[str],
    restrictive: bool,
    one_slot: bool = False,
    who: frozenset[str] = frozenset(),
) -> ListChange:
    """Did a list of one slot gain or lose members? Both texts must be about the same frame:
    most of what they say outside the members agrees ("Takes guitar lessons" is not the slot
    of "Plays guitar and bass"). A candidate naming fewer members shrinks the list only when it
    lists them itself or says so (`restrictive`: "only", a change cue); otherwise it restates
    part of the list. A single stored value may name its slot in other words ("Loves Japanese
    food" / "Favourite cuisines are Japanese and Ethiopian"): then the sentences' cosine must
    say they are one slot (`one_slot`: LIST_SLOT_COS for short sentences, more for long ones),
    and the stored item must say little but its value; a stored item that says more gives a
    change `by_nearness` only. Who the two are about (`who`) is no part of the frame:
    "Jon's passion for the project and belief in it" and "Jon is having trouble with his
    project" share the person, not what is said of him."""
    grew = shrank = False
    if len(c.members) >= 2:
        shared = {m for m in c.members if m in e_stems}
        grew = bool(shared) and shared != c.members and e.members <= c_stems
        # one more joined to the whole stored list, outside the list's own words
        grew = grew or (c.adds_to_list and len(e.members) >= 2 and e.members <= c.members)
        # the whole stored item said again, and one more added in a clause after the list
        grew = grew or (
            c.adds_after_list
            and len(e.members) >= 2
            and e.members <= c.members
            and e_stems - who <= c_stems
        )
    if len(e.members) >= 2 and not grew:
        # a member named as gone ("since Chris moved teams") is not kept
        kept = {m for m in e.members if m in c_stems and m not in c.departed}
        shrank = (
            bool(kept)
            and kept != e.members
            and (len(c.members) >= 2 or restrictive)
            and c.members <= e_stems
        )
    swapped = False
    if len(c.members) >= 2 and len(e.members) >= 2 and not (grew or shrank):
        both = c.members & e.members
        swapped = (
            len(both) >= 2
            and 2 * len(both) >= len(e.members)
            and bool(c.members - e_stems)
            and bool(e.members - c_stems)
        )
    if not (grew or shrank or swapped):
        return ListChange(False, False)
    every = c.members | e.members
    # The stance is not the frame: "Won't eat mushrooms, olives or aubergine" / "Dislikes
    # mushrooms and olives" are one slot, one saying nothing beside its stance and members.
    c_frame = c_stems - every - STANCE_WORDS - who
    e_frame = e_stems - every - STANCE_WORDS - who
    if c_frame and e_frame:
        overlap = len(c_frame & e_frame) / max(1, min(len(c_frame), len(e_frame)))
        if overlap < 0.5:
            if grew and not e.members and one_slot:
                # A stored item that says little but its value ("Loves Japanese food") is
                # that slot's value; one that says more ("These critters make Nate
                # appreciate life's little joys") may be about something else.
                bare_value = len(e_frame) <= BARE_VALUE_WORDS
                return ListChange(bare_value, False, by_nearness=not bare_value)
            return ListChange(False, False)
    elif swapped:
        # a swap drops a member: only where the two say the same around their members
        return ListChange(False, False)
    return ListChange(grew, shrank, swapped=swapped)
