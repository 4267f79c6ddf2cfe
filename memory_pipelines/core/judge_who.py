"""Whom two memory items are about, for the dedup judge: one subject, or two?

"Sister Mia lives in Cork" and "Brother Tom lives in Cork" share an attribute and a value, and
are two facts because they are about two people. `subject_conflict()` sets the subjects read by
`judge_rules.analyse` side by side:

- Two relations ("partner", "brother") or two names are two subjects.
- A thing named without an owner ("Camera is a Fujifilm X-T4", "Surname is Bell") is the user's
  own: a personal note leaves its owner out. It clashes with an item about a relative or a
  named person ("Brother shoots on a Fujifilm X-T4", "Partner's surname is Okonkwo").
- One side may still speak of the other's subject: it mentions it ("the kids" / "the
  children"), names it by its role ("Pays the childminder" / "Childminder Bev"), or names the
  person the other is ("Split up with Dario" / "Partner is Dario"). A word that is something of
  someone's ("Partner's surname") is no role, and a name that is not said to be the subject
  ("Mum is with Lumen Power", "Brother rides a Brompton") is what the other holds, not who.
- A group of relatives and its members are the same people ("Parents" / "Mum and Dad").
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_lexicon import DETERMINERS, RELATION_GROUPS
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_subjects import is_relation


def _implicit(a: Analysis) -> bool:
    """A thing named without an owner: no person read as its subject ("Camera is ...", where
    a capitalised opener is at most a guessed name), nothing possessive."""
    return not a.subject_is_person and not a.possessed and bool(a.subject_stems)


def same_family(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> bool:
    """Relation words for some of the same people: "parents" and "mother, father" (a group and
    its members), never two members of one group ("brother" and "sister")."""
    a_rel = {x for x in a if is_relation(x)}
    b_rel = {x for x in b if is_relation(x)}
    if a_rel & b_rel:
        return True
    return any(
        (group in a_rel and b_rel & members) or (group in b_rel and a_rel & members)
        for group, members in RELATION_GROUPS.items()
    )


def _owned(a: Analysis) -> bool:
    """Something of a named person's ("Gabe's GP"), not of a relative's (`_relative`) nor the
    user's own."""
    return bool(a.owners - {"user"}) and not any(map(is_relation, a.owners))


_NAMING = frozenset(("is", "are", "was", "were", "called", "named"))


def _relative(a: Analysis) -> bool:
    return any(map(is_relation, a.subject))


def _is_person(a: Analysis, who: frozenset[str]) -> bool:
    return a.subject_is_person or who == {"user"}


def _identities(a: Analysis) -> frozenset[str]:
    """Names that say who the subject of `a` is: after a copula or "called" ("Partner is
    Dario", "Dog called Rolo"), not what it holds or does ("Mum is with Lumen Power",
    "Brother rides a Brompton"), nor what something of theirs is ("Partner's surname is
    Ross"). Only names: a relation or pet word names no one."""
    out: set[str] = set()
    if a.possessed:
        return frozenset()
    toks = a.tokens
    for name in {x for x in a.entities - a.subject - {"user"} if not is_relation(x)}:
        if name not in toks:
            continue
        i = toks.index(name) - 1
        # look past a name's other words and articles ("is the Riverside Vets")
        while i >= 0 and (toks[i] in DETERMINERS or toks[i] in a.entities):
            i -= 1
        if i >= 0 and toks[i] in _NAMING:
            out.add(name)
    return frozenset(out)


def _held_apart(c: Analysis, e: Analysis, shared: frozenset[str]) -> bool:
    """ "Partner's sister is vegan" beside "Sister is vegan", "Brother's dog" beside "Has a dog
    called Rex": the same relation or pet word, one of it a relative's and the other the
    user's own (or another relative's), unless the other names that relative too. A name as
    owner may be the user's own ("Ana's API gateway", said by Ana): not read so."""
    if not shared - c.held_by - e.held_by or c.held_by == e.held_by:
        return False
    return not (c.held_by <= e.entities and e.held_by <= c.entities)


# "Hana's husband ...": a relative of a named person, as the subject.
_KIN_OF = re.compile(r"^\W*([A-Z][\w-]*)['’]s\s+(\w+)")


def _kin_of(a: Analysis, b_who: frozenset[str], b: Analysis) -> bool:
    """Is `a` about a relative of a person `b` is about, whom `b` does not speak of?
    "Hana's husband is training for his first half marathon" beside "Hana completed her
    first half marathon": two people, one of them named in both (so the clause below, one
    side mentioning the other's subject, would take them for one). So is "Tom's brother is a
    chef in Leeds" beside "Tom and Ana run a cafe in Leeds": Tom is one of whom it is about."""
    m = _KIN_OF.match(a.text)
    if not m or m.group(1).lower() not in b_who or not _relative(a):
        return False
    return not (a.subject & b.entities)


def _kin_alone(a: Analysis) -> frozenset[str]:
    """Whom `a` is about: its subject, less the person whose relative it is, when the relative
    is named ("Valentina's sister Chiara paid ..." is about Chiara, not Valentina, who is named
    only as whose sister she is; "Hana's husband ..." is read by _kin_of)."""
    m = _KIN_OF.match(a.text)
    owner = m.group(1).lower() if m else ""
    rest = a.subject - {owner}
    named = any(map(is_relation, rest)) and not all(map(is_relation, rest))
    if owner in a.subject and not is_relation(owner) and named:
        return rest
    return a.subject


# An item whose subject is a pronoun left as said: who it is, the item does not tell.
_PRONOUN_SUBJECT = re.compile(r"^\W*(?:he|she)(?:'s|’s|\s)", re.IGNORECASE)


def subject_conflict(c: Analysis, e: Analysis, speaker: frozenset[str] = frozenset()) -> bool:
    """Do the two items talk about different people, pets or things? `speaker`: the name
    words of whom the case is about (JudgeItem.speaker_words): an item about that person alone
    is the user's ("Jasmine raised prices to £14" and "Still £14 per candle", her "Jasmine: "
    set aside, are both hers)."""
    # A thing without an owner ("Camera is ...", where a capitalised opener is at most a
    # guessed name) is the user's only beside a relative or a pet that its item does not name;
    # otherwise what was read as its subject decides.
    # a correction ("..., not Tuesday") puts right what was said, whoever it was said of
    correcting = bool(c.old_words or e.old_words)
    c_who, e_who = (c.subject, e.subject) if correcting else (_kin_alone(c), _kin_alone(e))
    if _PRONOUN_SUBJECT.match(c.text) or _PRONOUN_SUBJECT.match(e.text):
        return False  # "He's on donepezil 5mg": whoever "he" is, it may be the other's subject
    if _implicit(c) and _relative(e) and not c.subject & e.entities:
        c_who = frozenset({"user"})
    if _implicit(e) and _relative(c) and not e.subject & c.entities:
        e_who = frozenset({"user"})
    # "Gabe's GP is Dr Rahman" beside "GP is Dr Rahman": a thing of a named person's is theirs,
    # and the same thing without an owner (one that does not name them) the user's own.
    if _implicit(c) and _owned(e) and not e.owners & c.entities:
        c_who, e_who = frozenset({"user"}), e.owners
    if _implicit(e) and _owned(c) and not c.owners & e.entities:
        c_who, e_who = c.owners, frozenset({"user"})
    if not c_who or not e_who:
        return False
    if speaker and {c_who, e_who} <= {frozenset({"user"}), *(frozenset({w}) for w in speaker)}:
        return False
    # ... and a relative, unnamed, is somebody else than that person ("Grandad gave Isla his
    # old fiat 500 bc he stopped driving" / "Isla is driving test booked")
    for a_who, b_who in ((c_who, e_who), (e_who, c_who)):
        if speaker and b_who <= speaker and all(is_relation(x) for x in a_who):
            return True
    if _held_apart(c, e, c_who & e_who):
        return True
    # "Partner Sam" and "Sam's mum": one name, two relations, two people.
    c_rel = {x for x in c_who if is_relation(x)}
    e_rel = {x for x in e_who if is_relation(x)}
    family = same_family(c_rel, e_rel)
    if c_rel and e_rel and not family:
        return True
    c_named = {x for x in c_who if not is_relation(x)} - {"user"}
    e_named = {x for x in e_who if not is_relation(x)} - {"user"}
    if c_named and e_named:  # "Colleague Fatima" vs "Colleague Tom": the names decide
        # ... unless each names the other's too: "Kofi's manager is Priya" and "Priya left,
        # Kofi's new manager is Tom" speak of the same two people.
        if c_named <= e.entities and e_named <= c.entities:
            return False
        return not (c_named & e_named)
    if c_who & e_who or family:  # "Parents ..." and "Mum and Dad ...": the same people
        return False
    if _kin_of(c, e_who, e) or _kin_of(e, c_who, c):
        return True
    # One side mentions the other's subject: "the kids stay at their dad's" and "shares
    # custody; the children are with their father" are about the same people.
    if (c_who - {"user"}) & e.entities or (e_who - {"user"}) & c.entities:
        return False
    # ... or names it by its role: "Pays the childminder £6.50" is about "Childminder Bev".
    for a, b, a_who in ((c, e, c_who), (e, c, e_who)):
        role = b.subject_stems - b.entities  # the one word beside a name
        if a_who == {"user"} and not b.possessed and len(role) == 1 and role & a.predicate_stems:
            return False
    # "Split up with Dario" beside "Partner is Dario": the user's own item names the person the
    # other is about, so it speaks of that relation.
    for a, b, a_who in ((c, e, c_who), (e, c, e_who)):
        if a_who == {"user"} and _identities(b) & a.entities:
            return False
    # "Thesis is due ..." beside a user item is no clash; "Partner Sam ..." beside one is.
    return _is_person(c, c_who) and _is_person(e, e_who)
