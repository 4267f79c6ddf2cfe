"""A happening of the past is history, for the dedup judge: "Last Friday (14 July 2023)
Caroline went to a council meeting for adoption", "Sister passed her test last year". What
happened stays true whatever happens next, so a later statement never replaces it, whatever
change it reports ("Caroline passed the adoption agency interviews" is another happening);
only a correction of the happening itself does ("It was on Thursday, not Friday", "The race
was pushed to 14 May").

A stored item is such a happening when it says when, in the past, relative to its telling
("yesterday", "last week", "three years ago"), with a verb in the past, and is no change that
lasts (a move, a marriage, a new job: core/episodes.LASTING_CHANGE), which later news may
undo. Pure Python.
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
)
_PAST = rx(rf"\b(?:was|were|{PAST_VERB})\b")


def past_happening(text: str) -> bool:
    """Whether a stored item tells a happening of the past (see the module's docstring)."""
    low = norm(text)
    return bool(_WHEN_PAST.search(low) and _PAST.search(low) and not LASTING_CHANGE.search(low))


def corrects(text: str) -> bool:
    """Whether a candidate puts a stored value right ("It's 41, not 14", "Correction: ..."),
    or says its date moved ("The half marathon was pushed to 14 May"): then it had not
    happened as told."""
    return correction(text) is not None or bool({"corrected", "date moved"} & change_cues(text))
