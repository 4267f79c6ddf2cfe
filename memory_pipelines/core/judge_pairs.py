"""Pair features for the dedup judge: a candidate beside one stored item.

`compare()` sets the `Analysis` of a candidate (core/judge_rules.py) beside that of one stored
item and returns a `Pair` of features that `judge.decide()` weighs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory_pipelines.core.judge_claims import (
    CLAUSE_SPLIT,
    LIST_SLOT_COS,
    STANCE_WORDS,
    Claims,
    change_clauses,
    claims,
    list_change,
    stance,
)
from memory_pipelines.core.judge_forms import number
from memory_pipelines.core.judge_lexicon import DETERMINERS, LIGHT_VERBS, MONTHS, bare, stem, words
from memory_pipelines.core.judge_mentions import heads_overlap, mentions
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_stance import (
    appraisal_turned,
    contrast_turned,
    main_stance_turned,
)
from memory_pipelines.core.judge_subjects import entity_key, subject_span
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.core.judge_values import shared_values, value_conflicts
from memory_pipelines.core.judge_who import same_family, subject_conflict


@dataclass(frozen=True)
class Pair:
    """How the candidate relates to one stored item."""

    index: int
    cos: float
    same_category: bool
    subject_conflict: bool  # they are about different people, pets or things
    shared_subject: bool  # they are about the same named person, pet or thing
    name_conflict: bool  # each side names a product/place/person the other does not
    shared_names: int  # proper names of the candidate that this item also uses
    # ... other than whom either is about: "Ana ran a race" / "Ana is starting to rest" share
    # the person, which says nothing of the two holding one value.
    shared_value_names: int
    slot_hit: bool  # "a new manager" and this item is about the manager
    narrower: bool  # this item's subject carries a qualifier the candidate lacks
    value_conflicts: tuple[str, ...]  # value types where the two hold different values
    shared_values: int
    shared_value_words: bool  # a name or typed value both state outside their subjects
    contain_existing: float  # share of the stored item's words found in the candidate
    predicate_overlap: float  # overlap of what is said once the subject is set aside
    old_hit: float  # share of the candidate's "from X"/"stopped X" words found here
    old_is_subject: bool  # ... and found only in this item's subject: it is about X, not X
    # ... and what is said of it the candidate says of its own subject: "Ellie covers the
    # weekend shifts now that Marcus has left" beside "Marcus works the weekend shifts".
    holder_replaced: bool
    frame_match: bool
    frame_mismatch: bool
    polarity_flip: bool  # "won't renew" vs "will renew"
    contrast: bool  # swapped word that the store uses for a different subject
    other_object: bool  # same frame ("likes ..."), a different thing in it
    negation_agrees: bool = False  # both deny the same thing ("never by phone" / "no calls")
    list_grew: bool = False  # the candidate lists this item's members and more
    list_shrank: bool = False  # the candidate keeps some of this item's members, adds none
    list_swapped: bool = False  # ... keeps most of them, and has others in place of the rest
    list_by_nearness: bool = False  # one stored value grew, one slot by the cosine alone
    other_form: bool = False  # both hold one value, written in another form on one side
    both_deny: bool = False  # each statement's main clause denies or rejects something
    aside_hit: bool = False  # it shares words with the change's other clauses (the old value)
    stance_turned: bool = False  # one main clause denies, the other not, about one thing


HOLDER_SHARE = 0.5  # share of what is said of the old holder that the candidate says of the new
# Cosine for "one thing, its appraisal turned": below it a fondness beside an aversion is as
# often a narrower thing ("fine with calls from the fraud team" / "no calls from the bank").
APPRAISAL_COS = 0.6
SWAP_COS = 0.7  # below this a one- or two-word swap changed the meaning, not the wording
# Two long sentences share more of their wording by chance (the speaker, feelings, the topic of
# the chat), so a cosine says less of them: what it must reach rises with their mean length.
LONG_FROM = 10  # words
LONG_STEP = 0.02  # per word past LONG_FROM


def long_allowance(c: Analysis, e: Analysis) -> float:
    """How much higher a cosine of these two must be than one of two short sentences."""
    return LONG_STEP * max(0.0, (len(c.tokens) + len(e.tokens)) / 2 - LONG_FROM)


def _plain(stems: frozenset[str]) -> frozenset[str]:
    """Stems other than numbers (in digits or words) and month names: "(April 2023)" after a
    change dates the telling, and "two mornings a week" after it counts something else than
    "two grandchildren": neither says which stored item held the old value."""
    return frozenset(
        w
        for w in stems
        if not any(ch.isdigit() for ch in w) and w not in MONTHS and number(w) is None
    )


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of `b` found in `a`."""
    return len(a & b) / len(b) if b else 0.0


def subject_names(c: Analysis, e: Analysis) -> frozenset[str]:
    """Whom two items are about, by name (as said and stemmed): no part of what either says
    of them."""
    return frozenset({stem(n) for n in c.subject | e.subject} | c.subject | e.subject)


def _narrower(e: Analysis, c: Analysis) -> bool:
    # A hyphenated qualifier on the stored subject that the candidate lacks ("skip-level
    # manager", "half-marathon best") marks a narrower slot than the candidate's.
    return any("-" in w and not any(ch.isdigit() for ch in w) for w in e.subject_stems - c.stems)


def _own_words(a: Analysis, subject: frozenset[str]) -> tuple[str, ...]:
    """The words of `a`, less its clauses that open with someone else than `subject`:
    "Aisha is vegetarian, Ben eats everything" eats nothing of Aisha's."""
    parts = CLAUSE_SPLIT.split(a.text)
    if len(parts) < 2:
        return a.tokens
    kept: list[str] = []
    for part in parts:
        said = words(part)
        split, _ = subject_span(said, [""] * len(said))
        # who the clause is about: its names and relations ("her dad Raul"), if any
        who = {entity_key(t) or bare(t).lower() for t in said[:split]} & (a.entities | {"user"})
        if who and not who & subject:
            continue
        kept += [bare(t).lower() for t in said]
    return tuple(kept)


def _as_verb(a: Analysis, stems: frozenset[str], subject: frozenset[str]) -> bool:
    """Does `a` use one of these stems as a verb, in a clause about `subject`? After an
    article ("a warm wash", "the renewal") the word is a noun."""
    if not stems:  # most items negate nothing: no clause to read
        return False
    toks = _own_words(a, subject)
    for i, tok in enumerate(toks):
        if stem(tok) in stems and not (
            (i >= 1 and toks[i - 1] in DETERMINERS) or (i >= 2 and toks[i - 2] in DETERMINERS)
        ):
            return True
    return False


def _rejected(a: Analysis) -> frozenset[str]:
    """Stems of the side an item passes over: "than fly", "not on video"."""
    return (a.preference[1] if a.preference else frozenset()) | (
        a.contrast[1] if a.contrast else frozenset()
    )


# Verbs whose meaning is their object ("hasn't got a pc yet" / "got a new job"): negated on one
# side only, they turn a claim round only when the two share what follows them.
_EMPTY_VERBS = frozenset(stem(w) for w in words("get got have has had do did does make made"))


def _flip(c: Analysis, e: Analysis) -> bool:
    # The same verb negated on exactly one side is a reversal ("won't renew" -> "will renew"),
    # unless the other side only has the word as a noun ("don't wash wool" / "a warm wash").
    # A verb one side rejects by preference or contrast ("would rather take the train than fly")
    # is denied there too.
    if not (c.predicate_stems & e.predicate_stems) - _EMPTY_VERBS:
        c_negated, e_negated = c.negated - _EMPTY_VERBS, e.negated - _EMPTY_VERBS
    else:
        c_negated, e_negated = c.negated, e.negated
    if _as_verb(c, e_negated - c_negated - _rejected(c), e.subject):
        return True
    if _as_verb(e, c_negated - e_negated - _rejected(e), c.subject):
        return True
    # So is a preference turned round: "prefers tea to coffee" after "prefers coffee to tea".
    if c.preference and e.preference:
        (c_yes, c_no), (e_yes, e_no) = c.preference, e.preference
        return bool(c_yes & e_no) and bool(c_no & e_yes)
    return False


def _contrast(i: int, c: Analysis, others: Sequence[Analysis]) -> bool:
    """Same statement about a swapped subject that the store knows as a separate thing.

    "Security review for the mobile app is booked for 2 June" vs "... the web app ...": the
    subjects differ by a word, the rest agrees, and another stored item is about the mobile app
    itself, so mobile and web are two subjects rather than two words for one.
    """
    e = others[i]
    # Both name their subject: the swap sits there, and half of what is said of it must agree
    # ("has 7 people" / "has 7 engineers"). Otherwise the swap may sit anywhere ("a dentist/GP
    # appointment"), and most of the stored predicate must agree.
    named = bool(c.subject_stems and e.subject_stems)
    if named:
        only_c, only_e = c.subject_stems - e.stems, e.subject_stems - c.stems
    else:
        only_c, only_e = c.stems - e.stems, e.stems - c.stems
    if not only_c or not only_e or len(only_c) > 2 or len(only_e) > 2:
        return False
    if same_family(only_c, only_e):  # "Parents ..." / "Mum and Dad ...": no swap
        return False
    if overlap(c.stems, e.predicate_stems) < (0.5 if named else 0.67):
        return False
    return any((only_c | only_e) & o.subject_stems for j, o in enumerate(others) if j != i)


def _other_object(c: Analysis, e: Analysis, cos: float) -> bool:
    """'Likes jazz' vs 'Likes classical music': same frame, a different thing in it.

    Either the items share nothing but a light verb, or they are the same sentence with one or
    two words swapped and the cosine still drops: the swapped words then differ in meaning
    ("plays padel on Thursdays" vs "plays tennis on Thursdays"), unlike a synonym swap.
    """
    shared = c.stems & e.stems
    only_c, only_e = c.stems - e.stems, e.stems - c.stems
    if not shared or not only_c or not only_e:
        return False
    # "Allergic to wasps" / "Allergic to penicillin", and so with the subject both name ("Lena is
    # allergic to latex" / "Lena is allergic to penicillin": another allergy, not one restated)
    said_of = shared - (c.subject_stems & e.subject_stems)
    if said_of and said_of <= LIGHT_VERBS | STANCE_WORDS:
        return True
    # The frame is the words they share besides values: "up at 5:30" / "gets up at 5:30" share
    # only the value, no frame to put another object in.
    # ... and a name both hold is their value, not a frame: "Line manager is Priya Shah" /
    # "Reports to Priya Shah" hold one person in two wordings.
    frame = {w for w in shared if not any(ch.isdigit() for ch in w)} - c.names - e.names
    small_swap = len(only_c) <= 2 and len(only_e) <= 2 and len(frame) >= max(len(only_c), 1)
    # A number or date among the swapped words is a value said another way ("anniversary 14
    # June" / "married on 14 June 2019"), which the value readers judge, not the wording.
    dated = any(ch.isdigit() for w in only_c | only_e for ch in w)
    return small_swap and not dated and cos < SWAP_COS


def _appraisal_turned(
    c: Analysis, e: Analysis, c_claims: Claims, e_claims: Claims, who: frozenset[str], cos: float
) -> bool:
    """The stance on one thing turned ("Loves coriander" / "Hates coriander"), said of one
    subject, for no occasion of its own and with no other value ("Fine with meetings on
    Mondays" / "No meetings on Fridays" speak of two days)."""
    if cos < APPRAISAL_COS or c.exception or subject_conflict(c, e):
        return False
    if value_conflicts(c.values, e.values):
        return False
    return appraisal_turned(c.text, c_claims, e.text, e_claims, who)


def _other_form(c: Analysis, e: Analysis) -> bool:
    """One value on both sides, written in two forms: "six pounds fifty" and "£6.50", "half
    past seven" and "19:30", "turned 36" and "born in 1988", "10k" and "ten thousand"."""
    for kind in c.values.keys() & e.values.keys():
        for value in c.values[kind] & e.values[kind]:
            c_forms = {f for k, v, f in c.derived if (k, v) == (kind, value)} or {""}
            e_forms = {f for k, v, f in e.derived if (k, v) == (kind, value)} or {""}
            if c_forms != e_forms:
                return True
    return False


def compare(
    i: int,
    c: Analysis,
    existing: Sequence[Analysis],
    cos: float,
    categories: tuple[str, str],
    about: frozenset[str] = frozenset(),
) -> Pair:
    """Features of candidate `c` against stored item `existing[i]` (the others give context).
    `about`: the names, lower case, of whom the whole case is about (the speaker of a chat
    between named people, `JudgeItem.said_by`): no value two items share, no old value named
    aside, no part of a list's frame."""
    e = existing[i]
    c_claims, e_claims = claims(c.text), claims(e.text)
    who = frozenset(c.subject | e.subject) | c.subject_stems | e.subject_stems
    st = stance(c_claims, e_claims, ignore=who)
    # A change cue or "only" makes a shorter list a new value ("ships only to Spain now").
    restrictive = bool(c.cues) or " only " in f" {c.text.lower()} "
    slot_cos = LIST_SLOT_COS + long_allowance(c, e)
    speaker = about | {stem(n) for n in about}
    lists = list_change(
        c_claims,
        e_claims,
        c.stems,
        e.stems,
        restrictive,
        cos >= slot_cos,
        subject_names(c, e) | speaker,
    )
    # The speaker's name is no value: "Sam: 22:45 at Bushy parkrun" (her "Sam: " set aside)
    # names nothing that "Current PB is 24:10 from parkrun, Sam runs ..." holds otherwise.
    c_only_names = {n for n in c.names if not mentions(e, n) and n.lower() not in about}
    e_only_names = {n for n in e.names if not mentions(c, n) and n.lower() not in about}
    n_shared_values = shared_values(c.values, e.values)
    # A name matches a name: "Fennel Invest" says nothing of "is invested in".
    # What is said under a condition ("until it is retired") is not what the item states.
    c_said = c.predicate_stems - c.conditional - {stem(n) for n in c_only_names}
    e_said = e.predicate_stems - e.conditional - {stem(n) for n in e_only_names}
    old = c.old_words | c_claims.departed
    _, aside = change_clauses(c.text)
    old_is_subject = bool(e.stems & old) and e.stems & old <= e.subject_stems
    said_alike = max(overlap(c_said, e_said), overlap(e_said, c_said))
    return Pair(
        index=i,
        cos=cos,
        same_category=categories[0] == categories[1],
        subject_conflict=subject_conflict(c, e, about),
        shared_subject=bool(
            (c.subject & e.subject) - {"user"}
            or (c.subject - {"user"}) & e.entities
            or (e.subject - {"user"}) & c.entities
            # "Their flat has a balcony" / "Flat is on the fourth floor": same thing as subject
            or c.subject_stems & e.subject_stems
        ),
        name_conflict=bool(c_only_names) and bool(e_only_names),
        shared_names=sum(mentions(e, n) for n in c.names),
        shared_value_names=sum(mentions(e, n) for n in c.names - c.subject - e.subject - about),
        slot_hit=bool(c.slot_words & e.subject_stems),
        narrower=_narrower(e, c),
        value_conflicts=tuple(value_conflicts(c.values, e.values)),
        shared_values=n_shared_values,
        shared_value_words=bool(n_shared_values)
        or any(mentions(e, n) for n in c.names - c.subject - e.subject - about),
        contain_existing=overlap(c.stems, e.stems),
        # A name matches a name: "Fennel Invest" says nothing of "is invested in".
        predicate_overlap=said_alike,
        old_hit=heads_overlap(e.stems, old),
        old_is_subject=old_is_subject,
        holder_replaced=old_is_subject and said_alike >= HOLDER_SHARE,
        frame_match=bool(c.frames & e.frames),
        frame_mismatch=bool(c.frames) and bool(e.frames) and not (c.frames & e.frames),
        # Opposite stances on shared content, or a verb negated on one side only, unless the
        # two deny the same thing in other words.
        polarity_flip=st.oppose
        or (_flip(c, e) and not st.agree)
        or contrast_turned(c.contrast, c_claims, e.contrast, e_claims, who)
        or _appraisal_turned(c, e, c_claims, e_claims, who, cos),
        contrast=_contrast(i, c, existing),
        other_object=_other_object(c, e, cos),
        negation_agrees=st.agree and not st.oppose,
        list_grew=lists.grew,
        list_shrank=lists.shrank,
        list_swapped=lists.swapped,
        # a hedged candidate is an inference, never a new value: it grows no list
        list_by_nearness=lists.by_nearness and not c.hedged,
        other_form=_other_form(c, e),
        both_deny=c_claims.denies and e_claims.denies,
        aside_hit=bool(_plain(aside - who - speaker) & e.stems),
        stance_turned=main_stance_turned(c_claims, e_claims, who),
    )


def nearest(chosen: Sequence[Pair], action: str, reason: str) -> JudgeDecision | None:
    """`action` on the nearest of the pairs a reader chose (None when it chose none); `reason`
    may name the cosine as {cos}."""
    if not chosen:
        return None
    best = max(chosen, key=lambda p: p.cos)
    return JudgeDecision(action, best.index, reason.format(cos=best.cos))
