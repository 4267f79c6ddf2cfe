"""Corrections said with their new value only, what they are of left to the sentence they put
right: a cue ("Sorry,", "No,", "I had it wrong") and a clause that points back ("it's June 21",
"it leaves at 7:40"), or a value said to have moved ("thanks, it got moved to 11 March", "exam
got moved to 25 nov"). `restated` reads one; `across_turns` finds the sentence it puts right
(`corrections.repair_earlier`). The "X, not Y" form is `corrections.correction`."""

from __future__ import annotations

import re

from memory_pipelines.core.corrections import OPENER, WORDISH, value_kind

# A correction said with its new value only, what it is of left to the sentence it puts right:
# a cue ("Sorry,", "No,", "Typo,", "I had it wrong") and a clause that points back ("it's June
# 21", "it leaves at 7:40") or is the value ("three kids, I forgot the baby").
_CUE = re.compile(
    r"^\W*(?:(?:sorry|oops|whoops|ugh|argh|no|nope|wait|hang on|hold on|hmm+|oh|ah|actually|typo"
    r"|correction"
    r"|my bad|my mistake|i mean|i meant|scratch that|make that"
    # put right by the other, the right value next: "oh ur right 9:15, my bad" (not "You're
    # right, it's been three years": agreement)
    r"|(?:you'?re|ur|you are) (?:right|correct)(?=\W+(?:\d|(?:(?:mon|tues|wednes|thurs|fri|satur"
    r"|sun)days?|january|february|march|april|june|july|august|september|october|november"
    r"|december)\b)))\b\W*"
    # ... with "and" between two of them: "oh and correction, ..."
    r"(?:and\W+(?=(?:sorry|oops|no|wait|actually|correction|typo|my bad|my mistake)\b))?)+",
    re.IGNORECASE,
)
# The cue said after the value: "He's five actually", "It's 7:40, sorry".
_CUE_AFTER = re.compile(r"[,;]?\s*\b(?:actually|sorry|my bad|my mistake|oops)\W*$", re.IGNORECASE)
_SAID_WRONG = re.compile(
    r"^(?:i|we) (?:had|got) (?:it|that|this|them|those|the \w+) (?:all )?wrong$"
    r"|^(?:i|we) (?:always |keep |must have )?mix(?:ed|ing)? (?:it|them|those|these|the two) up$"
    # the old value named as what was said: "earlier I said 50 - it's 100mg actually"
    r"|^(?:and |but )?(?:earlier |before )?(?:i|we) (?:said|wrote|put|told you) \S+(?: \S+)?$",
    re.IGNORECASE,
)
_INSTEAD = re.compile(r"\s+instead$", re.IGNORECASE)
# A value said to have moved, of what was told before ("thanks, it got moved to 11 March
# actually", "they put it up to 39 from March"): no cue is needed, the clause says the old
# value no longer holds.
_MOVED = re.compile(
    # ... or of a thing named ("exam got moved to 25 nov"), which the sentence put right names
    r"^(?:(?:it|that|they)\b(?:['’](?:s|ve|re)|\s+(?:has|have|got|was|were|is|are))?"
    r"|(?:the |my |our |his |her |their )?(?!(?:i|we|you|he|she|they|it|that|this)\b)"
    r"(?P<thing>[a-z][\w-]+)(?:['’]s|\s+(?:has|got|was|is))\b)"
    r"(?:\s+(?:been|now|just|all|finally|since))*\s+"
    r"(?:moved|pushed(?: back)?|put back|brought forward|rescheduled|postponed|changed|bumped"
    r"(?: up)?|put (?:it |them )?(?:up|down)|gone (?:up|down)|went (?:up|down)|goes (?:up|down))"
    r"\s+(?:to|till|until)\b",
    re.IGNORECASE,
)
# A thing named with its value: "the rent's 975", "my flight is 7:40"
_THING_IS = re.compile(
    r"^(?:the |my |our |his |her |their )?(?!(?:i|we|you|he|she|they|it|that|this)\b)"
    r"[a-z][\w-]*(?:['’]s|\s+(?:is|are|was))\s+(?:now\s+|actually\s+)?[$£€]?\d",
    re.IGNORECASE,
)
_POINTS_BACK = re.compile(
    r"^(?:it|it's|it is|that's|that is|they|they're|they are|he's|she's)\b", re.IGNORECASE
)
_CLAUSE = re.compile(r"\s*[,;:–—]\s+|\s+-\s+")


def restated(sentence: str, cue_after: bool = True) -> tuple[str, list[str]] | None:
    """(the clause that gives it, the values in it) of a correction that says its new value
    only: "Sorry, I had it wrong, it leaves at 7:40" -> ("it leaves at 7:40", ["7:40"]); the
    values are numbers and dates, the kinds a value said wrong is of. None for any other
    sentence; the sentence it puts right is for the caller to find (repair_earlier)."""
    cue = _CUE.match(sentence)
    body = sentence[cue.end() :] if cue else sentence
    # only the sentence's end is read: a search of the whole from every comma or space of a
    # long run was quadratic (100k characters: 300 s)
    tail = max(len(body) - 40, 0)
    after = _CUE_AFTER.search(body, tail) if cue_after else None
    body = body[: after.start()] if after else body
    cue = cue or after
    clauses = [c.strip(" .!") for c in _CLAUSE.split(body) if c.strip(" .!")]
    said_wrong = [c for c in clauses if _SAID_WRONG.match(c)]
    rest = [c for c in clauses if c not in said_wrong]
    moved = next((c for c in rest if _MOVED.match(c)), None)
    if moved is not None and not (cue and _values_in(rest[0])):
        # "thanks, it got moved to 11 March": what the clause is of was told before
        cue, rest = cue or _MOVED.match(moved), [moved]
    late = _CUE_AFTER.search(rest[0], max(len(rest[0]) - 40, 0)) if rest and cue_after else None
    if late:
        # the cue ends the clause that gives the value: "it's on 15 actually, we upgraded it"
        cue, rest[0] = cue or late, rest[0][: late.start()]
    if not cue and rest and _INSTEAD.search(rest[0]):
        # the new value in place of the old: "sunday at 6 instead, same deal"
        cue, rest[0] = _INSTEAD.search(rest[0]), _INSTEAD.sub("", rest[0])
    if not rest or not (cue or said_wrong):
        return None
    head = rest[0]
    values = _values_in(head)
    # the value first, perhaps after "the" or "on" ("Hang on, no, the 16th")
    first = re.sub(r"^(?:on |in |at )?(?:the )?", "", head, flags=re.IGNORECASE).split()
    moved_thing = _MOVED.match(head)
    named = moved_thing is not None and moved_thing["thing"] is not None
    named = named or bool(_THING_IS.match(head))  # "oh and correction the rent's 975"
    if not values or not (_POINTS_BACK.match(head) or named or (first and first[0] == values[0])):
        return None
    return head, values


def _values_in(clause: str) -> list[str]:
    """The numbers and dates of a clause, the kinds a value said wrong is of."""
    values = [m.group() for m in re.finditer(WORDISH, clause)]
    return [v for v in values if value_kind(v) in ("number", "date")]


def without_cue(sentence: str) -> str:
    """The correction without its cue and the words that point back ("Hmm, actually it's
    Bruges, not Ghent" -> "Bruges, not Ghent"): what is left says what it is about, if
    anything."""
    return OPENER.sub("", _CUE.sub("", sentence))
