"""Hedges: what makes a sentence low-confidence speculation rather than a statement. Maybes and
modal verbs, undecided plans, belief frames ("I think ..."), and the assistant's suggestions.
Used by core/sentence_kinds.py. Pure Python."""

from __future__ import annotations

import re


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_HEDGE = _rx(
    r"\bmaybe\b|\bmight\b|\bperhaps\b|\bpossibl[ey]\b|\bprobably\b|\b(?:un)?likely\b|"
    r"\bnot sure\b|\bunsure\b|\bno (?:idea|clue)\b|"
    r"\b(?:don't|do not) know (?:what|whether|if|how|when|where|which|yet)\b|\bdunno\b|"
    r"\bguess\b|\bhunch\b|\ba chance\b|\bcould (?:be|go|try)\b|"
    r"\b(?:you|it|that|this|we) could\b|\bsome ?day\b|\bone day\b|\bat some point\b|"
    r"\bthinking (?:about|of)\b|\bconsidering\b|\btoying with\b|\bwonder|\btempted\b|"
    r"\bdepend(?:s|ing) on\b|\btbd\b|\bundecided\b|\bhaven't decided\b|\bnot (?:yet )?confirmed\b|"
    r"\bnothing's confirmed\b|\bhave to check\b|\beither way\b|\bthinks\b|"
    r"\bsuspect|\bhopefully\b|\bif i get (?:time|a chance|round)|\bhave you (?:tried|considered)\b|"
    r"\bhow about\b|\bwhy not\b|\bworth (?:a )?try|"
    # the modal "may" (after a pronoun, so not the month: "This May we ...") and options not taken
    r"\b(?:i|we|you|it|they|he|she|that|which|there) may (?:not |or |well |be |\w+)|"
    r"\bmay or may not\b|\b(?:one|another|an|other) (?:option|alternative)s?\b|"
    # wait-and-see idioms, a decision not (yet) made, a choice put off
    r"\bwe'll see\b|\bfingers crossed\b|\bwait and see\b|"
    r"\bnot (?:yet )?decided\b|\byet to decide\b|\bstill deciding\b|"
    r"\b(?:think|mull) (?:it|this|that) over\b|\bthink about it\b|\bsleep on it\b"
)
# A belief frame: the weakest hedge. "I think the dog is about nine" is speculation on its own,
# but it does not undo a plain, concrete fact said next to it (see is_belief_only).
_BELIEF = _rx(r"\b(?:i|we) (?:think|believe|reckon)\b(?! (?:in|of|about)\b)")  # not "believe in"
# Hedged only when the assistant says it: a suggestion, or a hypothetical "would" that is not its
# own ("One option would be to remortgage", "a sensor would be wasteful"; not "I would").
_SUGGESTION = _rx(
    r"\bi(?:'d)? (?:suggest|recommend)\b|(?<!\bi )(?<!\bwe )\bwould (?:be|make|give|save|cost)\b|"
    r"\byou (?:may|might) (?:want|wish|like) to\b|\bi'd (?:go with|go for|pick|choose|opt for)\b"
)


def is_belief_only(sent: str) -> bool:
    """Whether a sentence is hedged by a belief frame ("I think ...") and nothing stronger."""
    low = " ".join(sent.lower().replace("\u2019", "'").split())
    return bool(_BELIEF.search(low)) and not _HEDGE.search(low)


def is_hedged(low: str, role: str) -> bool:
    """Whether a sentence (normalised, see sentence_kinds.norm) is hedged: a hedge word, a
    belief frame, or a suggestion when the assistant says it."""
    return bool(
        _HEDGE.search(low)
        or _BELIEF.search(low)
        or (role == "assistant" and _SUGGESTION.search(low))
    )
