"""Chat's case put as careful writing has it: first names typed in lower case given their
capital ("my new manager is priya" -> "... is Priya") and English words shouted in capitals
given back their lower case ("got PROMOTED" -> "got promoted"). The rules reading a window know
a name by its capital: they read lower-case chat as they read careful writing, and took a
shouted word for a name (the judge read "Callum got PROMOTED" as naming another value than
"Callum's manager is Owen"). Which words are names or words is the caller's
(models/person_names.py); a word inside an address, a handle, a path or a contraction
("nina.k@...", "@nina", "aren't") is left as it is, and so is an acronym ("EMAS", "NHS").

A name that is an English word too ("grace", "rose", "tom") is a name where a name is said:
after a relative or a role of somebody's ("my sister grace", "my new manager tom"), after
"called" or "named", or beside the speaker ("me and dan broke up") (`names_given`); the
caller capitalises it throughout the window."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from memory_pipelines.core.referents import RELATIVE_WORDS

_EDGE = r"(?<![\w'’@#/.\-])"
_END = r"(?![\w@/\-]|\.\w|['’]t\b)"
_LOWER_WORD = re.compile(rf"{_EDGE}([a-z]{{3,}}){_END}")
_SHOUTED = re.compile(rf"{_EDGE}([A-Z]{{4,}}){_END}")
_ANY_LOWER = re.compile(r"\b[a-z]{3,}\b")

_ROLES = (
    rf"{RELATIVE_WORDS}|partner|friend|mate|boss|manager|colleague|coworker|co-worker|flatmate|"
    r"roommate|housemate|neighbou?r|cousin|kid|child|baby|teacher|coach|tutor|doctor|dentist|"
    r"therapist|landlord|landlady|client|assistant|nanny|childminder|cat|dog|puppy|kitten"
)
_NAME_GIVEN = re.compile(
    r"\b(?:(?:my|our|his|her|their)\s+(?:(?:new|old|little|big|older|younger|eldest|youngest|"
    rf"best|ex|late|step|twin)\s*-?\s*)?(?:{_ROLES})|called|named|name's|name is)\s+"
    rf"(?P<word>[a-z]{{3,}}){_END}"
)
# Words that follow "my sister" and are first names too, said as the words they are
_NOT_GIVEN = frozenset(
    {"will", "may", "can", "said", "don", "van", "per", "else", "long", "young", "king", "mate",
     "job", "tea", "pal", "nil", "han", "min", "max", "ace", "son", "nan", "nana"}
)  # fmt: skip

# ... or beside the speaker, a person like them: "me and dan broke up", "dan and I"
_WITH_ME = re.compile(
    rf"\b(?:me|i) and (?P<after>[a-z]{{3,}}){_END}|\b(?P<before>[a-z]{{3,}}) and (?:i|me)\b"
)

Lexicon = Callable[[str], bool]


def names_given(text: str, is_name_or_word: Lexicon) -> set[str]:
    """The lower-case words `text` gives as somebody's name ("my sister grace" -> {"grace"})
    that `is_name_or_word` knows as first names."""
    given = [m["word"] for m in _NAME_GIVEN.finditer(text)]
    given += [m["after"] or m["before"] for m in _WITH_ME.finditer(text)]
    return {word for word in given if word not in _NOT_GIVEN and is_name_or_word(word)}


def as_written_carefully(
    text: str, is_name: Lexicon, is_word: Lexicon, given: Iterable[str] = ()
) -> str:
    """`text` with every lower-case word that `is_name` takes for a first name, or that is
    among the names `given` in the window, capitalised and every word of four letters or more
    in capitals that `is_word` knows (in lower case) and `is_name` does not put in lower
    case."""
    named = set(given)
    # most turns hold no such word: they are read once, not rewritten word by word
    names = {w for w in set(_ANY_LOWER.findall(text)) if w in named or is_name(w)}
    if names:
        text = _LOWER_WORD.sub(lambda m: m[1].capitalize() if m[1] in names else m[1], text)

    def lowered(m: re.Match[str]) -> str:
        word = m[1].lower()
        return word if is_word(word) and not is_name(word) else m[1]

    return _SHOUTED.sub(lowered, text) if _SHOUTED.search(text) else text
