"""A short answer kept with its question ('Asked "How old is Pickle?", Callum said: "12."'):
how extraction writes it (core/across_turns.py) and how the judge reads it back. The
question says what the answer is of; the sentence's first word is no verb of the speaker's."""

from __future__ import annotations

import re

_KEPT = re.compile(r'^Asked "(?P<question>.+?)", .{1,80}? said: "(?P<answer>.+)"$', re.S)


def answer_kept(question: str, who: str, reply: str) -> str:
    """The answer and its question, both quoted as said."""
    return f'Asked "{question}", {who} said: "{reply}"'


def question_and_answer(text: str) -> tuple[str, str] | None:
    """The question and the answer of an answer kept with its question, else None."""
    m = _KEPT.match(text)
    return (m["question"], m["answer"]) if m else None
