"""She, he or they for a first name, from counts of real people who bear it.

The local extractor writes what a person said of themselves in the third person ("I taught
myself the cello", said by Helga -> "Helga taught herself the cello"), so it needs a pronoun
for a speaker's name. The data is nomquamgender's (MIT licence; Van Buskirk, Clauset and
Larremore 2023): for each name, how many people in 36 sources (national registers, scholarly
author lists, social networks) bear it and the share of them who are women. A pronoun is given
only when SURE of them are one gender and at least MIN_PEOPLE bear the name; a name borne by
men and women alike (Alex 9% women, Sam 7%, Taylor 36%) is "they", as is a name too rare to
tell. A wrong pronoun is worse than a neutral one. A name the data does not hold gets None, and
the caller decides (models/local.py).

The package's own reader loads its 22 MB table with pandas on import (3.5 s, 230 MB); this
module reads the table once per machine into a small file under MEMORY_HOME/models (one line a
name borne by MIN_PEOPLE or more: 65k names, 0.5 MB) and reads that afterwards (written whole
or not at all: a temporary file renamed)."""

from __future__ import annotations

import json
import os
import threading
import unicodedata
from collections.abc import Callable
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from memory_pipelines.core.home import memory_home

SURE = 0.95  # share of the people bearing a name who are one gender, for she or he
MIN_PEOPLE = 100  # people bearing a name, for the data to speak for it at all
_MARK = {"f": "she", "m": "he", "-": "they"}

_lock = threading.Lock()
_tables: dict[Path, dict[str, str]] = {}


def pronoun_for(name: str, cache: Path | None = None) -> str | None:
    """ "she", "he" or "they" for a person's name (its first word, accents aside, any case), or
    None when the data does not know the name."""
    words = _plain(name).split()
    if not words:
        return None
    mark = _table(cache or memory_home() / "models").get(words[0])
    return None if mark is None else _MARK[mark]


def _plain(name: str) -> str:
    """Lower case without accents ("Tomás" -> "tomas"), as the data spells names."""
    decomposed = unicodedata.normalize("NFKD", name.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _table(folder: Path) -> dict[str, str]:
    with _lock:
        if folder not in _tables:
            _tables[folder] = _load(folder)
        return _tables[folder]


def _load(folder: Path) -> dict[str, str]:
    version = metadata.version("nomquamgender")
    path = folder / f"name-pronouns-{version}-{SURE}-{MIN_PEOPLE}.tsv"
    lines = cached_lines(path, lambda: [f"{n}\t{m}" for n, m in sorted(_from_package().items())])
    return dict(line.split("\t") for line in lines)


def cached_lines(path: Path, build: Callable[[], list[str]]) -> list[str]:
    """The lines of a table kept under MEMORY_HOME/models: read from `path` when written
    before, else built now and written there whole or not at all (a temporary file renamed).
    An unwritable cache costs only the file: the lines are used from memory."""
    if path.exists():
        return path.read_text("utf-8").splitlines()
    lines = build()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text("".join(f"{line}\n" for line in lines), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return lines


def package_data() -> dict[str, list[Any]]:
    """nomquamgender's table: name -> [sources, people, share of women, ...]."""
    with resources.files("nomquamgender").joinpath("name_data.json").open(encoding="utf-8") as f:
        data: dict[str, list[Any]] = json.load(f)
    return data


def _from_package() -> dict[str, str]:
    """name -> f, m or - (neither SURE) for every plain name borne by MIN_PEOPLE or more. Each
    entry of the package's table is [sources, people, share of women, ...]."""
    table = {}
    for name, (_, people, women, *_) in package_data().items():
        if people < MIN_PEOPLE or not name.isalpha():
            continue
        table[name] = "f" if women >= SURE else "m" if women <= 1 - SURE else "-"
    return table
