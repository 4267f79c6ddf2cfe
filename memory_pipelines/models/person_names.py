"""Whether a word typed in lower case is a person's first name ("my new manager is priya"),
and whether a word shouted in capitals is an English word ("got PROMOTED").

Chat is often typed in lower case, and the local extractor's rules and the judge know a name by
its capital: "ugh felix left, my new manager is priya" read no name at all, so the judge merged
it into "Nadia's manager is called Felix" instead of replacing it. A word is a name here when
- at least MIN_PEOPLE people bear it, in at least MIN_SOURCES of the 36 sources of
  nomquamgender's data (the data of models/name_pronouns.py): a name in wide use, not a rare one
  that is also a chat word ("kinda": 468 people in 13 sources; "priya": 11,188 in 23);
- it is no English word written in lower case in Webster's Second or in GCIDE (the
  english-words package), nor a plural, past, -ing form or British spelling of one ("miles",
  "banks", "favour"): "grace", "mark", "will", "rose" and "hope" stay words;
- and it is no month's name ("april", "june": a date, not a person; the dictionaries write
  them with a capital) nor one of the few WORDS_TOO those dictionaries lack ("max" as in
  "max 3 days").
That leaves 3,661 names of the 4,338 in wide use; the others, English words too ("grace",
"tom"), are names only where a name is given ("my sister grace": core/name_case.py,
`name_lookups`). The table is made once per machine from the two packages' data (about 4 s)
into a small file under MEMORY_HOME/models, and read from it afterwards."""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from memory_pipelines.core.home import memory_home
from memory_pipelines.models.name_pronouns import cached_lines, package_data

MIN_PEOPLE = 2000
MIN_SOURCES = 20
# English words the dictionaries (1913-1934) lack that are first names too.
WORDS_TOO = frozenset({"max", "teddy", "hunter"})
_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august",
                     "september", "october", "november", "december"})  # fmt: skip
# Endings of a word's other forms, and what its dictionary form ends with instead.
_FORMS = (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ed", "e"), ("ing", ""),
          ("ing", "e"), ("our", "or"))  # fmt: skip

Lookup = Callable[[str], bool]

_lock = threading.Lock()
_lists: dict[Path, dict[str, str]] = {}


def is_first_name(word: str, cache: Path | None = None) -> bool:
    """Whether `word` (lower case) is a first name in wide use that is no English word."""
    return name_lookups(cache)[0](word)


def name_lookups(cache: Path | None = None) -> tuple[Lookup, Lookup]:
    """(whether a lower-case word is a first name in wide use that is no English word, whether
    it is a first name in wide use at all, a word too or not: "grace", "rose"), both bound to
    the table once, for a caller looking up many words."""
    folder = cache or memory_home() / "models"
    with _lock:
        if folder not in _lists:
            _lists[folder] = _load(folder)
        table = _lists[folder]
    return (lambda word: table.get(word) == ""), table.__contains__


def _load(folder: Path) -> dict[str, str]:
    # named by what the list depends on: a change of the data or of these rules makes a new one
    rules = repr((MIN_SOURCES, MIN_PEOPLE, sorted(WORDS_TOO | _MONTHS), _FORMS, "es-hiss")).encode()
    versions = f"{metadata.version('nomquamgender')}-{metadata.version('english-words')}"
    path = folder / f"first-names-{versions}-{hashlib.sha256(rules).hexdigest()[:12]}.tsv"
    return dict(line.partition("\t")[::2] for line in cached_lines(path, _from_packages))


def is_english_word(word: str) -> bool:
    """Whether `word` (lower case) is an English word written in lower case in the
    dictionaries, or a plural, past, -ing form or British spelling of one ("-es" only after
    a hiss: "james" is no plural of "jam")."""
    words = _english_words()
    return word in words or any(
        word.endswith(end)
        and word[: -len(end)] + base in words
        and (end != "es" or word[:-2].endswith(("s", "x", "z", "ch", "sh")))
        for end, base in _FORMS
    )


@functools.cache
def _english_words() -> frozenset[str]:
    """Webster's Second and GCIDE's words in lower case (about 216k; 0.2 s to read)."""
    from english_words import get_english_words_set

    return frozenset(w for w in get_english_words_set(["web2", "gcide"], alpha=True) if w.islower())


def _from_packages() -> list[str]:
    def a_word(name: str) -> bool:
        return name in WORDS_TOO or name in _MONTHS or is_english_word(name)

    return sorted(
        f"{name}\t{'word' if a_word(name) else ''}"
        for name, (sources, people, *_) in package_data().items()
        if len(name) >= 3 and name.isascii() and name.isalpha()
        and sources >= MIN_SOURCES and people >= MIN_PEOPLE
    )  # fmt: skip
