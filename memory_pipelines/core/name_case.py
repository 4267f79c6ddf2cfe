"""Chat's case put as careful writing has it: first names typed in lower case given their
capital ("my new manager is priya" -> "... is Priya") and English words shouted in capitals
given back their lower case ("got PROMOTED" -> "got promoted"). The rules reading a window know
a name by its capital: they read lower-case chat as they read careful writing, and took a
shouted word for a name (the judge read "Callum got PROMOTED" as naming another value than
"Callum's manager is Owen"). Which words are names or words is the caller's
(models/person_names.py); a word inside an address, a handle, a path or a contraction
("nina.k@...", "@nina", "aren't") is left as it is, and so is an acronym ("EMAS", "NHS")."""

from __future__ import annotations

import re
from collections.abc import Callable

_EDGE = r"(?<![\w'’@#/.\-])"
_END = r"(?![\w@/\-]|\.\w|['’]t\b)"
_LOWER_WORD = re.compile(rf"{_EDGE}([a-z]{{3,}}){_END}")
_SHOUTED = re.compile(rf"{_EDGE}([A-Z]{{4,}}){_END}")

Lexicon = Callable[[str], bool]


def as_written_carefully(text: str, is_name: Lexicon, is_word: Lexicon) -> str:
    """`text` with every lower-case word that `is_name` takes for a first name capitalised and
    every word of four letters or more in capitals that `is_word` knows (in lower case) and
    `is_name` does not put in lower case."""
    text = _LOWER_WORD.sub(lambda m: m[1].capitalize() if is_name(m[1]) else m[1], text)

    def lowered(m: re.Match[str]) -> str:
        word = m[1].lower()
        return word if is_word(word) and not is_name(word) else m[1]

    return _SHOUTED.sub(lowered, text)
