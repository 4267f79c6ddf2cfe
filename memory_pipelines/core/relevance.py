"""What a message asks of memory: a greeting, a thanks or a "how are you?" asks nothing, and a
record that is itself small talk answers nothing. Auto-recall skips both, so chit-chat never
fills a turn's context."""

from __future__ import annotations

import re

from memory_pipelines.core import sentence_kinds

# Phatic questions: they ask after the listener, not after anything memory holds.
_SOCIAL = re.compile(
    r"^\W*(?:(?:hi|hey|hello|so|and|well)\W+)?(?:how(?:'s| is| are| have| has)? (?:you|u|it|"
    r"things|everything|life|your day|the day|your week)\b(?: (?:been|going|doing|today|"
    r"lately|these days|so far))*|what'?s up|how do you do|you ok|all good)\W*$",
    re.IGNORECASE,
)


def is_generic(message: str) -> bool:
    """Greetings, acknowledgements and phatic questions ("ok thanks", "hi!", "How are you
    today?") ask nothing of memory."""
    kinds = set()
    for sentence in sentence_kinds.sentences(message):
        if _SOCIAL.match(sentence.strip()):
            continue
        kinds.add(sentence_kinds.sentence_kind(sentence, "user"))
    return kinds <= {"greeting", "ack"}
