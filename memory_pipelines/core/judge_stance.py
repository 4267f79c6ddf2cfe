"""Whether a statement turned round what a stored one held, for the dedup judge.

`judge_claims.stance` finds two clauses with the same content under opposite polarity ("won't
renew" / "will renew"). Two readings reach further:

- **A contrast.** "Wants therapy sessions in person, not on video" holds a chosen side and a
  rejected one. A statement that now takes the rejected side ("Now prefers video sessions")
  and leaves the chosen one out has turned the preference round. (Two contrasts are compared by
  `judge_pairs`: "prefers tea to coffee" after "prefers coffee to tea".)
- **The main clause's stance.** "Loves hot food now" beside "Can't handle spicy food; keep
  dishes mild": the main clause of one denies or rejects, of the other asserts, and the two
  share what they are about. Said under a change cue, that is the stance turned round; without
  one it is as often a neighbouring taste ("Hates surprise parties" / "Prefers small
  gatherings"), so `judge.py` asks for a cue.
- **An appraisal turned.** "Loves coriander" beside "Hates coriander", "Fine with Slack
  messages in the evening" beside "No Slack messages after 6pm": a word of fondness in one
  main clause, a denial or a verb of aversion in the other, about one thing. Two denials in
  other words ("Won't buy fast fashion" / "Avoids fast fashion") are no such turn.

General English only: contrast markers and the negators of `judge_claims`.
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_claims import Claims, without_cause_not
from memory_pipelines.core.judge_lexicon import LIGHT_VERBS, content_stems, words

# "in person, not on video", "tea rather than coffee", "the train instead of flying": the chosen
# side, then the rejected one (up to the clause end: a "but" opens another clause).
_CONTRAST = re.compile(
    r"^(?P<yes>[^,;:]+?)(?P<sep>,?\s+(?:and\s+)?)(?P<marker>not|rather than|instead of)\s+"
    r"(?P<no>(?:(?!\bbut\b)[^,;:.])+)",
    re.IGNORECASE,
)
# A bare "not" (no comma or "and" before it) after an auxiliary or a copula, or before a verb's
# own "to", "be" or "having", negates a verb: "they're not alone", "Jon is not going to
# forget", "kind of sad not being out in nature" reject no side.
_AUX_BEFORE = re.compile(
    r"(?:\b(?:am|is|are|was|were|be|been|do|does|did|will|would|shall|should|can|could|may"
    r"|might|must|has|have|had)|['’](?:re|s|m|d|ll))$",
    re.IGNORECASE,
)
_VERB_AFTER = re.compile(r"(?:to|be|being|having)\b", re.IGNORECASE)


def _negates_a_verb(m: re.Match[str]) -> bool:
    if m.group("marker").lower() != "not" or "," in m.group("sep") or "and" in m.group("sep"):
        return False
    return bool(_AUX_BEFORE.search(m.group("yes")) or _VERB_AFTER.match(m.group("no")))


Contrast = tuple[frozenset[str], frozenset[str]]


def contrast_pair(text: str) -> Contrast | None:
    """(chosen, rejected) content stems of "X, not Y" / "X rather than Y" / "X instead of Y"."""
    for clause in re.split(r"[;:]", without_cause_not(text)):
        m = _CONTRAST.search(clause.strip())
        if not m or _negates_a_verb(m):
            continue
        yes = content_stems(words(m.group("yes"))) - LIGHT_VERBS
        no = content_stems(words(m.group("no"))) - LIGHT_VERBS
        if yes and no:
            return yes, no
    return None


def asserted(claims: Claims) -> frozenset[str]:
    """Content of the clauses that neither deny nor reject."""
    return frozenset().union(*(x.content for x in claims.clauses if not x.negative))


def contrast_turned(
    c: Contrast | None,
    c_claims: Claims,
    e: Contrast | None,
    e_claims: Claims,
    ignore: frozenset[str] = frozenset(),
) -> bool:
    """One side holds a contrast; the other, holding none, asserts its rejected side ("No ORM"
    takes no side) and leaves the chosen side's own words out. Who the two are about
    (`ignore`) is no side: "the flight is from Manchester, not Stansted like Kofi told Efua"
    rejects no item that names Kofi."""
    for held, other in ((e, asserted(c_claims)), (c, asserted(e_claims))):
        if held is None or (c is not None and e is not None):
            continue
        yes, no = held
        rejected, chosen = no - yes - ignore, yes - no - ignore
        if rejected & other and chosen - other:
            return True
    return False


def main_stance_turned(c: Claims, e: Claims, ignore: frozenset[str]) -> bool:
    """The main clause of one denies, of the other does not, and what is denied is what the
    other holds (most of the smaller main clause, one word at least): a clause of one side that
    denies shares content with the other's main clause, or the denying main clause with a
    clause of the other that denies nothing. Two clauses that both assert are no turn ("The
    respite list doesn't matter anymore, Aoife cancelled that" / "He's put Aoife on a low dose
    of amlodipine": only the two assertions name Aoife)."""
    if c.denies == e.denies or not c.clauses or not e.clauses:
        return False
    denier, other = (c, e) if c.denies else (e, c)
    denied = frozenset().union(*(x.content for x in denier.clauses if x.negative)) - ignore
    held = frozenset().union(*(x.content for x in other.clauses if not x.negative)) - ignore
    d_main, o_main = denier.clauses[0].content - ignore, other.clauses[0].content - ignore
    shared = (denied & o_main) | (d_main & held)
    return bool(shared) and len(shared) >= 0.5 * min(len(d_main), len(o_main))


# A main clause that appraises its object well ("Loves coriander", "Fine with Slack messages",
# "Happy to take calls") or badly with a verb of aversion ("Hates coriander", "Can't stand jazz").
_FOND = re.compile(
    r"\b(?:loves?|loved|likes?|liked|enjoys?|enjoyed|adores?|(?:fine|happy|ok|okay|keen|glad)"
    r" (?:with|to|on|about))\b",
    re.IGNORECASE,
)
# "her love of reading" is a noun; "look like her own style", "it's like therapy" a
# preposition: neither appraises.
_NOUN_BEFORE = re.compile(
    r"\b(?:a|an|the|their|his|her|my|our|your|its|this|that)\s+$", re.IGNORECASE
)
_PREPOSITION_BEFORE = re.compile(
    r"(?:\b(?:look|looks|looked|looking|feel|feels|felt|feeling|seem|seems|seemed|sound|sounds"
    r"|sounded|is|was|are|were|be|just|more|something|things|stuff)|['’]s)\s+$",
    re.IGNORECASE,
)


def _fond(main: str) -> bool:
    for m in _FOND.finditer(main):
        before = main[: m.start()]
        if _NOUN_BEFORE.search(before):
            continue
        if m.group().lower() == "like" and _PREPOSITION_BEFORE.search(before):
            continue
        return True
    return False


_AVERSE = re.compile(
    r"\b(?:hates?|hated|dislikes?|disliked|loathes?|detests?|can['’]?t stand|cannot stand)\b",
    re.IGNORECASE,
)
_MAIN = re.compile(r"[,;:(]|\s[-–—]\s|\bbut\b|\bthough\b", re.IGNORECASE)


def appraisal_turned(
    c_text: str, c: Claims, e_text: str, e: Claims, ignore: frozenset[str]
) -> bool:
    """One main clause appraises its object well, the other denies it or holds it in aversion,
    and the two main clauses are about one thing: "Loves coriander in just about everything" /
    "Hates coriander, says it tastes of soap"; "Fine with Slack messages in the evening" / "No
    Slack messages after 6pm". Unlike two denials in other words, the stance itself turned."""
    if not c.clauses or not e.clauses:
        return False
    c_main, e_main = _MAIN.split(c_text)[0], _MAIN.split(e_text)[0]
    c_fond = _fond(c_main) and not c.denies
    e_fond = _fond(e_main) and not e.denies
    c_against = bool(_AVERSE.search(c_main)) or c.denies
    e_against = bool(_AVERSE.search(e_main)) or e.denies
    if not ((c_fond and e_against) or (c_against and e_fond)):
        return False
    return bool((c.clauses[0].content & e.clauses[0].content) - ignore)
