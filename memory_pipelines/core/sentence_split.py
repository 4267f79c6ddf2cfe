"""A chat turn split into sentences, and the content words of a text: the units the sentence
kinds (core/sentence_kinds.py), the save policy and extraction read. Both are cached, as a turn
is read again as context of the turns and windows after it. Pure Python."""

from __future__ import annotations

import re
from functools import lru_cache

_STOP_WORDS = (
    "a an the and or but so to of in on at for with by from is are was were be been it its this "
    "that these those i you we he she they me my our your his her their them us do does did not "
    "no yes yeah ok just now then than as if up out about into over can will would have has had "
    "what which who when where how all any some"
)
_STOP = frozenset(_STOP_WORDS.split())


# Words whose full stop ends no sentence: titles before a name ("Dr. Halvorsen", "Mrs. Patel"),
# "e.g." and "i.e." before an example. (A lone capital may be an initial or a grade: "got an
# A. Mum was thrilled" ends there.)
_NO_END = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Sr|Jr|Rev|Fr|Capt|Lt|Sgt|Col|Gen|Hon|Mt)"
    r"|\b(?:vs|e\.g|i\.e|E\.g|I\.e))\.$"
)
# An emoji ends a chat sentence as a full stop does ("too old for hugs now 😭 my husband ..."),
# when a word follows it.
_EMOJI = "\U0001f300-\U0001faff\u2600-\u27bf\ufe0f"
_BREAK = re.compile(rf"(?<=[.!?])\s+|(?<=[{_EMOJI}])\s+(?=\w)|\n+")


def sentences(text: str) -> list[str]:
    """Split a turn into sentences (and lines), the unit that sentence_kind labels. A full stop
    after a title or an initial ends no sentence ("The orthopedist, Dr. Halvorsen, ...")."""
    return list(_sentences(text))  # a copy: the caller may change its list


# Extraction splits a turn some fifteen times (the save policy, each rule, and again as context
# of the next turns and window): 55k splits of 10k texts over LoCoMo.
@lru_cache(maxsize=16384)
def _sentences(text: str) -> tuple[str, ...]:
    text = text.strip()
    out, start = [], 0
    for m in _BREAK.finditer(text):
        if "\n" not in m.group() and _NO_END.search(text, 0, m.start()):
            continue
        out.append(text[start : m.start()])
        start = m.end()
    out.append(text[start:])
    return tuple(q for p in out if p.strip() for q in _asked_after(p.strip()))


# A statement with a question to the listener after its comma is two sentences: "my sister's
# wedding is on the 11th of July, could you look after Pixel that weekend?" tells the date
# whatever is asked. Not a condition or a time before the question ("if it rains, could you
# ...?", "when you're back, can you ...?"): that is part of what is asked.
_ASKED_AFTER = re.compile(
    r"^(?P<told>(?!(?:if|when|while|before|after|since|because|once|as|whenever|unless|until|"
    r"and|but|so|or|also|oh|ok|okay|hey|hi|hmm|sorry|please|pls|is|are|am|was|were|do|does|did|"
    r"can|could|would|will|should|shall|have|has|had|what|where|why|who|how|which)\b)"
    r"[^,?]+?(?:\s+\S+){3,}),\s+"
    r"(?P<asked>(?:could|can|would|will|do|did)\s+(?:you|u)\b[^?]*\?)$",
    re.IGNORECASE,
)


def _asked_after(sentence: str) -> tuple[str, ...]:
    m = _ASKED_AFTER.match(sentence)
    return (m.group("told"), m.group("asked")) if m else (sentence,)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each of sentences(text) lies in text: (start, end) character offsets."""
    spans, pos = [], 0
    for sentence in sentences(text):
        start = text.find(sentence, pos)
        if start < 0:  # cannot happen: sentences are stripped pieces of text, in order
            continue
        pos = start + len(sentence)
        spans.append((start, pos))
    return spans


def content_words(text: str) -> set[str]:
    """The words of text that are not stop words."""
    return set(_content_words(text))  # a copy: the caller may change its set


_WORD = re.compile(r"[a-z0-9%£€$']+")


# The save policy reads the words of each recent turn again for every turn after it.
@lru_cache(maxsize=16384)
def _content_words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in _STOP)
