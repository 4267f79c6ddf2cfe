"""A name put right by its spelling: "The client's name is Jon Smyth" ... "oops it's John Smith
actually" names no old value, and a name is no number or date a bare correction could find by
its kind (core/restated.restated). The earlier name it puts right is the one spelled most
like it, of as many words, so the new spelling goes into that sentence. Pure Python."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from memory_pipelines.core.corrections import Correction, apply_to_earlier

# A cue, then the name as it should be: "oops it's John Smith", "sorry, the name's Siobhan".
_RESPELT = re.compile(
    r"^\W*(?:(?:sorry|oops|whoops|no|wait|actually|typo|correction|my bad|ugh|ah|oh)\b\W*)+"
    r"(?:it'?s|it is|that'?s|that is|the name'?s|the name is|(?:it'?s )?spelt|(?:it'?s )?spelled)"
    r"\s+(?P<name>(?-i:[A-Z][\w'’-]+)(?:\s+(?-i:[A-Z][\w'’-]+)){0,2})(?=[\s,.!;]|$)"
    # ... naming no old value: "oh its Aviva not admiral" puts right what it names, or nothing
    r"(?![\s,]*(?:not|instead of|rather than)\b)",
    re.IGNORECASE,
)
_NAME_WORD = r"(?-i:[A-Z][\w'’-]+)"
ALIKE = 0.6  # the two spellings' share of letters in common (difflib's ratio)


def respelled(sentence: str) -> str | None:
    """The name a sentence spells anew after a cue ("oops it's John Smith actually" -> "John
    Smith"), or None."""
    m = _RESPELT.match(sentence)
    return m.group("name") if m else None


def misspelled_in(new: str, said: Sequence[str]) -> tuple[int, str] | None:
    """(index, rewritten sentence) of the sentence of `said` holding the name of as many words
    that `new` puts right, the new spelling in its place and the old one still named: the only
    such name said, or the one spelled most like it ("Jon Smyth" for "John Smith"); None when
    none is."""
    words = len(new.split())
    rx = re.compile(rf"(?<![\w'’-]){_NAME_WORD}(?:\s+{_NAME_WORD}){{{words - 1}}}(?![\w'’-])")
    found = [
        (SequenceMatcher(None, m.group().lower(), new.lower()).ratio(), i, m.group())
        for i, sentence in enumerate(said)
        for m in rx.finditer(sentence)
        if m.group() != new
    ]
    if not found:
        return None
    alike, i, old = max(found)  # the likest; the latest of equals
    if len({o for _, _, o in found}) > 1 and alike < ALIKE:
        return None  # several names, none spelled like it: which one is meant is not said
    fixed = apply_to_earlier(Correction(new, old, True), [said[i]])
    return None if fixed is None else (i, fixed[1])
