"""An abbreviation read as the words it stands for, where the other side of a case spells
them out: "WFH Mon & Fri" beside "Works from home on Mondays and Fridays", "T1D, on an Omnipod
pump" beside "Has type 1 diabetes", "the OU" beside "an Open University degree". The judge
reads both texts with the words put in, so the two are as near as what they say, not as their
letters. Pure Python: no list of abbreviations, only the initials of words said beside them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from memory_pipelines.core.judge_lexicon import STOPWORDS
from memory_pipelines.core.judge_slots import Embed
from memory_pipelines.core.judge_types import JudgeItem

# Two to five capitals or digits, the first a capital, in upper case as typed ("WFH", "OU",
# "T1D"), not a word in capitals for emphasis (read only up to five letters).
_ACRONYM = re.compile(r"(?<![\w'’-])(?-i:[A-Z][A-Z0-9]{1,4})(?![\w'’-])")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _spelled(acronym: str, text: str) -> str | None:
    """The words of `text` whose initials are the acronym's letters, in order, the first and
    the last no stopword (so "in town" is no "IT"); None when there are none, or the text
    holds the acronym itself."""
    if re.search(rf"\b{re.escape(acronym)}\b", text):
        return None
    words = list(_WORD.finditer(text))
    n = len(acronym)
    for i in range(len(words) - n + 1):
        run = words[i : i + n]
        if all(w.group()[0].lower() == ch.lower() for w, ch in zip(run, acronym, strict=True)):
            first, last = run[0].group().lower(), run[-1].group().lower()
            if first not in STOPWORDS and last not in STOPWORDS and len(last) > 1:
                return text[run[0].start() : run[-1].end()]
    return None


def spelled_out(text: str, others: Sequence[str]) -> str:
    """`text` with each acronym replaced by the words one of `others` spells it with."""

    def words(m: re.Match[str]) -> str:
        for other in others:
            if said := _spelled(m.group(), other):
                return said
        return m.group()

    return _ACRONYM.sub(words, text)


def read_out(
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    cand_vec: np.ndarray,
    existing_vecs: np.ndarray,
    embed: Embed | None,
) -> tuple[JudgeItem, list[JudgeItem], np.ndarray, np.ndarray]:
    """The case with every acronym that the other side spells out put as its words, and the
    changed texts embedded again (unchanged without an embedder: their vectors would not
    say what the words do). The candidate's acronyms are read from any stored item, a stored
    item's from the candidate."""
    if embed is None:
        return candidate, list(existing), cand_vec, existing_vecs
    c_text = spelled_out(candidate.context, [x.context for x in existing])
    e_texts = [spelled_out(x.context, [candidate.context]) for x in existing]
    texts = [c_text, *e_texts]
    changed = [
        i
        for i, (new, old) in enumerate(zip(texts, [candidate, *existing], strict=True))
        if new != old.context
    ]
    if not changed:
        return candidate, list(existing), cand_vec, existing_vecs
    vectors = embed([texts[i] for i in changed])
    all_vecs = np.vstack([np.asarray(cand_vec)[None, :], np.asarray(existing_vecs)]).astype(
        np.float32
    )
    for i, v in zip(changed, vectors, strict=True):
        all_vecs[i] = v
    others = [replace(x, context=t) for x, t in zip(existing, e_texts, strict=True)]
    return replace(candidate, context=c_text), others, all_vecs[0], all_vecs[1:]
