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


# An answer that is only a "cannot answer" ("I don't have information about that", "No idea,
# sorry", "I'm not sure."): kept with its question, it was stored as a fact (a spec audit). One
# that goes on to give something ("I don't know exactly, around 40k") is an answer.
_NO_ANSWER = re.compile(
    r"^\W*(?:(?:sorry|hmm+|um+|well|honestly|unfortunately)\W+)*(?:"
    r"i\s+(?:really\s+|honestly\s+)?(?:do\s*n[o'’]?t|can[’']?t|cannot|could\s*n[’']?t)\s+"
    r"(?:know|say|tell|remember|recall|find\s+(?:that|it|this|any\s+\w+)|"
    r"have\s+(?:any\s+)?(?:information|info|details|data|access|a\s+record)(?:\s+on\s+(?:that|it|"
    r"this))?)|"
    r"i[’']?m\s+(?:not\s+(?:sure|certain)|afraid\s+i\s+do\s*n[o'’]?t\s+know)|no\s+idea|"
    r"not\s+sure|i\s+have\s+no\s+(?:idea|information|info|record|details))"
    r"(?:\s+(?:about|of|on|for)\s+(?:that|this|it|them))?"
    r"(?:\W+(?:sorry|i'?m\s+afraid|unfortunately))?\W*$",
    re.IGNORECASE,
)


def no_answer(reply: str) -> bool:
    """Whether a reply is nothing but a "cannot answer" (`_NO_ANSWER`)."""
    return bool(_NO_ANSWER.match(reply))
