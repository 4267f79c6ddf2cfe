"""A happening of the past is history, for the dedup judge: "Last Friday (14 July 2023)
Caroline went to a council meeting for adoption", "Sister passed her test last year". What
happened stays true whatever happens next, so a later statement never replaces it, whatever
change it reports ("Caroline passed the adoption agency interviews" is another happening);
only a correction of the happening itself does ("It was on Thursday, not Friday", "The race
was pushed to 14 May").

A stored item is such a happening when it says when, in the past, relative to its telling
("yesterday", "last week", "three years ago"), with a verb in the past, and is no change that
lasts (a move, a marriage, a new job: core/episodes.LASTING_CHANGE), which later news may
undo.

Likewise a start told years after it happened ("Caroline started playing the guitar about five
years ago (2018)", "started when she was young") is no change of an item said since: that item
was told while the candidate's state already held (`began_in`). Pure Python.
"""

from __future__ import annotations

from memory_pipelines.core.corrections import correction
from memory_pipelines.core.episodes import LASTING_CHANGE
from memory_pipelines.core.judge_cues import change_cues
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.patterns import rx
from memory_pipelines.core.sentence_kinds import norm

_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_WHEN_PAST = rx(
    rf"\byesterday\b|\blast (?:night|week|weekend|month|year|summer|winter|spring|autumn"
    rf"|{_WEEKDAYS})\b|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple"
    r"|\d+) (?:of )?(?:days?|weeks?|months?|years?) ago\b"
    # a time of life or a time before the present one: "as a kid", "before this job"
    r"|\bas an? (?:child|kid|boy|girl|teenager|teen|student)\b|\bgrowing up\b|\bback then\b"
    r"|\bbefore (?:this|that|the|his|her|their|my|our) (?:job|role|move|one)\b"
)
_PAST = rx(rf"\b(?:was|were|{PAST_VERB})\b")


def past_happening(text: str) -> bool:
    """Whether a stored item tells a happening of the past (see the module's docstring)."""
    low = norm(text)
    return bool(_WHEN_PAST.search(low) and _PAST.search(low) and not LASTING_CHANGE.search(low))


# The first clause of an item, and what tells it is said of now.
_FIRST_CLAUSE = rx(r"^[^,;:]*?(?=,|;|:| - | because | since | when | after | and | but |$)")
_NOW_SAID = rx(
    r"\b(?:is|are|am|has|have|does|do|don't|doesn't|can|can't|will|won't|would|(?:it|he|she|that|there)'s|seems?|looks?"
    r"|feels?|gets?|keeps?|says?|thinks?|knows?|wants?|needs?|likes?|loves?|hates?|prefers?"
    r"|enjoys?|suspects?|believes?|finds?)\b"
)


def told_as_past(text: str) -> bool:
    """Whether an item's first clause tells something that happened ("Clara taught her cousins
    to kayak", "The trademark was registered in 2023"), not a state or habit of now ("Hana
    always runs at dawn", "Yasmin is scared of flying")."""
    low = norm(text)
    m = _FIRST_CLAUSE.match(low)
    head = m.group(0) if m else low
    return bool(_PAST.search(head)) and not _NOW_SAID.search(head)


def corrects(text: str) -> bool:
    """Whether a candidate puts a stored value right ("It's 41, not 14", "Correction: ..."),
    or says its date moved ("The half marathon was pushed to 14 May"): then it had not
    happened as told."""
    return correction(text) is not None or bool({"corrected", "date moved"} & change_cues(text))


_START = r"\b(?:started|began|begun|took up)\b[^.;!?]*?"
_START_YEAR = rx(rf"{_START}(?:\bago\s*\((?:[^()]*?\s)?((?:19|20)\d\d)\)|\bin ((?:19|20)\d\d)\b)")
_START_YOUNG = rx(
    rf"{_START}\bwhen (?:\w+ )?(?:was|were) (?:young|little|small|a kid|a child|a teenager"
    r"|a teen|at school|in school)\b"
)


def began_in(text: str) -> int | None:
    """The year a candidate says its state began, when it places the start in a year ("about
    five years ago (2018)", "in 2019") or in childhood (0: before anything said of the
    person since); None when it says no such start."""
    low = norm(text)
    m = _START_YEAR.search(low)
    if m:
        return int(m.group(1) or m.group(2))
    return 0 if _START_YOUNG.search(low) else None
