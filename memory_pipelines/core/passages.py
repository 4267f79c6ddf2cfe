"""Long texts split into passages for search: whole paragraphs, then sentences, ~N words each."""

from __future__ import annotations

import re

MAX_WORDS = 180


def split_passages(text: str, max_words: int = MAX_WORDS) -> list[str]:
    """Consecutive pieces of the text of at most ~max_words words, cut at paragraph or sentence
    ends, so each passage fits the embedder (256 word pieces) and reads on its own."""
    units: list[str] = []
    for para in re.split(r"\n\s*\n", text.strip()):
        para = " ".join(para.split())
        if not para:
            continue
        if len(para.split()) <= max_words:
            units.append(para)
        else:
            units += [s for s in re.split(r"(?<=[.!?])\s+", para) if s]
    out: list[str] = []
    cur: list[str] = []
    for unit in units:
        words = unit.split()
        while len(words) > max_words:  # one sentence longer than a passage: cut it
            if cur:
                out.append(" ".join(cur))
                cur = []
            out.append(" ".join(words[:max_words]))
            words = words[max_words:]
        if cur and len(cur) + len(words) > max_words:
            out.append(" ".join(cur))
            cur = []
        cur += words
    if cur:
        out.append(" ".join(cur))
    return out
