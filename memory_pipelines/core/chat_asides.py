"""Asides of a chat between people: sentences in the first person that tell no fact about the
speaker, read by what the sentence does, not by its topic.

- a spectator's anticipation: waiting to see or hear what the other shows or tells ("Can't wait
  to see the vid!", "I'm keen to hear about it"); the speaker's own plan stays ("I can't wait to
  open the studio in May").
- a resolution said to oneself: an obligation with nothing to do but keep a frame of mind
  ("Gotta stay resilient and focused", "I have to focus on why I started"); a task with its
  thing or time stays ("I have to renew my passport by June"); so is a pledge of effort alone
  ("I'll do my best to find some resources").
- a feeling about others or the moment that names nothing of the speaker's ("I'm so glad
  everyone could make it", "I'm truly grateful for all the support I've got"); a feeling that
  holds the speaker's own thing is kept ("I'm lucky to have my husband and kids").
- a confident guess about how things will turn out ("I'm sure it'll pay off", "I'm sure it made
  a big impact"): an outcome foreseen, no fact; said after a fact in the same sentence ("I got a
  temp job, but I'm sure it'll be worth it") it is a mood clause and the fact is kept.
- a wish for the listener or what they told of ("I hope he recovers quickly"); the speaker's
  own hope stays ("I hope my visa comes through by May").

Used by core/extract_parts.py for turns between people. Pure Python.
"""

from __future__ import annotations

import re

from memory_pipelines.core.concrete import WHEN
from memory_pipelines.core.patterns import rx

_I = r"(?:i|i'm|i am|i've|i have|i'd|i would|i will|i'll)"
# Waiting to perceive what someone else has or does: the verb of perceiving takes a pronoun, a
# thing just mentioned or a clause about another ("see them rock the festival", "hear about
# it", "see what we can do together").
_SPECTATOR = rx(
    rf"^\W*(?:{_I}\s+)?(?:(?:so|really|super|just)\s+)?(?:can't wait|cannot wait|"
    r"(?:am |'m )?(?:keen|excited|eager|dying) to|(?:am |'m )?looking forward) (?:to )?"
    r"(?:see|hear|watch|read|check out|seeing|hearing|watching|reading)\s+"
    r"(?:it|them|that|this|those|these|the|your|his|her|their|what|how|about|more|you)\b"
)
# An obligation of the speaker's: "Gotta", "I've got to", "I have to", "I need to", "I must".
_OBLIGED = rx(
    r"^\W*(?:i\s+)?(?:gotta|got to|'ve got to|have got to|have to|need to|must)\s+(?P<rest>.+)$"
)
# A pledge of effort with nothing done yet: "I'll do my best to find some resources".
_EFFORT = rx(
    r"^\W*(?:i'll|i will|i'm going to|i am going to|gonna) (?:do|try) my (?:best|hardest)\b"
)
# What a resolution keeps to: a frame of mind, not a thing done ("stay focused", "keep going",
# "focus on why I started", "make time to dance", "remember ...", "believe in myself").
_FRAME = rx(
    r"^(?:stay|keep|focus|remember|believe|trust|remind|make time|push|never|not|always|"
    r"be (?:strong|positive|patient|brave|grateful|kind|myself))\b"
)
# The speaker's feeling as the whole predicate: "I'm so glad ...", "I feel blessed to ...".
_FEELING = rx(
    r"^\W*(?:i'm|i am|i feel|i felt|i was)\s+(?:(?:so|really|truly|very|super|just)\s+)*"
    r"(?:glad|grateful|thankful|lucky|blessed|proud|happy)\b"
)
# What makes a feeling the speaker's fact: their own thing ("my husband"), a number or a name.
_OWN_THING = re.compile(r"\b(?:[Mm]y|[Oo]ur)\b|\d|\b[A-Z][a-z]+")
# "I'm sure it'll pay off", "I know it will work out": certainty about an outcome.
_SURE = rx(
    r"^\W*(?:i'm|i am|i feel|i'm (?:just |so |really )?)\s*(?:so |really |just |pretty )?"
    r"(?:sure|certain|confident|positive)\b(?:,)?\s+(?:that\s+)?(?P<rest>.+)$"
)
# A wish for the listener or what they told of: "I hope he recovers quickly", "I hope you have
# a great time"; the speaker's own hope stays ("I hope my visa comes through by May").
_WISH = rx(
    r"^\W*(?:i|we)\s+(?:really\s+|truly\s+|just\s+|so\s+)?hope\s+(?:that\s+)?"
    r"(?:you|your|he|she|they|it|things|everything|all)\b"
)
# "I hope it doesn't rain at my wedding on Saturday": the speaker's own thing, a fact of theirs.
_MINE = re.compile(r"\b(?:my|our)\b", re.IGNORECASE)
_OUTCOME = rx(
    r"\b(?:will|'ll|would|'d|can|could|is going to|are going to|gonna)\b|\b(?:made|make|makes) "
    r"(?:a |an |the )?(?:\w+ )?(?:difference|impact)\b|\bpay(?:s)? off\b|\bworth it\b"
)


def aside(sentence: str) -> str | None:
    """Why a first-person sentence said to another person tells no fact about the speaker
    ("spectator", "resolution", "feeling", "guess", "wish"), or None."""
    if _FEELING.match(sentence) and not _OWN_THING.search(sentence, 1):
        return "feeling"
    if _SPECTATOR.search(sentence):
        return "spectator"
    obliged = _OBLIGED.match(sentence)
    if obliged and _FRAME.match(obliged.group("rest")) and not WHEN.search(sentence):
        return "resolution"
    if _EFFORT.match(sentence) and not WHEN.search(sentence):
        return "resolution"
    sure = _SURE.match(sentence)
    if sure and _OUTCOME.search(sure.group("rest")):
        return "guess"
    if _WISH.match(sentence) and not _MINE.search(sentence):
        return "wish"
    return None
