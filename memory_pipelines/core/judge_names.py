"""Two items that name the same person are near for the name alone: in a chat between people
extraction writes the person into every item, and unrelated facts of one person ("Friendship
means a lot to John" / "Their love gives John strength") reach a cosine of 0.5-0.65, which is a
merge for short sentences. A merge keeps the stored wording, so the candidate's own fact was
lost. A merge must hold with the speaker's name put aside: by the cosine of the two sentences
with the name masked in both ("Friendship means a lot to someone" / "Their love gives someone
strength": 0.39), and their words in common less the name."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from memory_pipelines.core.judge_history import told_as_past
from memory_pipelines.core.judge_lexicon import stem
from memory_pipelines.core.judge_merge import merge_score, merge_threshold
from memory_pipelines.core.judge_pairs import Pair, overlap
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_slots import Embed
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.core.sentence_people import names_person

_WORD = re.compile(r"[A-Za-z][\w-]*(?:'s)?")


def _masked(text: str, names: frozenset[str]) -> str:
    """The text with each of the names (lower-cased keys) said as nobody in particular."""

    def mask(m: re.Match[str]) -> str:
        word = m.group()
        if word.endswith("'s") and word[:-2].lower() in names:
            return "their"
        return "someone" if word.lower() in names else word

    return _WORD.sub(mask, text)


def cos_without(c_text: str, e_text: str, names: frozenset[str], embed: Embed) -> float | None:
    """The cosine of two sentences with the names masked in both (None when neither says
    one)."""
    if all(_masked(t, names) == t for t in (c_text, e_text)):
        return None
    return cos_masked(c_text, e_text, names, embed)


def cos_masked(a_text: str, b_text: str, names: frozenset[str], embed: Embed) -> float:
    """The cosine of two sentences with the names (lower-cased keys) masked in both."""
    a, b = _vectors(embed, [_masked(t, names) for t in (a_text, b_text)])
    return float(a @ b)


# A stored item is shown to the judge again and again: its masked text is embedded once.
_SEEN: OrderedDict[tuple[Embed, str], np.ndarray] = OrderedDict()
_SEEN_MAX = 8192
_SEEN_LOCK = threading.Lock()


def _vectors(embed: Embed, texts: list[str]) -> list[np.ndarray]:
    """The texts' vectors, each embedded once while it stays among the last _SEEN_MAX (safe
    for saves in several threads at once)."""
    with _SEEN_LOCK:
        known = {t: _SEEN[(embed, t)] for t in texts if (embed, t) in _SEEN}
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    if missing:
        known.update(zip(missing, embed(missing), strict=True))
    with _SEEN_LOCK:
        for t in texts:
            _SEEN[(embed, t)] = known[t]
            _SEEN.move_to_end((embed, t))
        while len(_SEEN) > _SEEN_MAX:
            _SEEN.popitem(last=False)
    return [known[t] for t in texts]


# Two sentences of one subject this near with the subject set aside say the same of it.
SAID_OTHERWISE = 0.65


def said_otherwise(c_text: str, e_text: str, c: Analysis, e: Analysis, embed: Embed | None) -> bool:
    """Whether two items of one subject that share few words say the same state or liking of
    it in other words ("Hana always runs at dawn because it's too hot later in the day" /
    "Hana prefers early morning runs to avoid the afternoon heat"): their cosine with the
    subject masked in both. Not two happenings on one topic, told in the past ("Clara taught
    her cousins to kayak" / "Clara learned to kayak at camp"). On the tuning sets, of the
    pairs kept apart as "same subject, different attribute", the masked cosine's median was
    0.57 for restatements and 0.26 for new facts."""
    if embed is None or told_as_past(c_text) or told_as_past(e_text):
        return False
    names = frozenset(w.lower() for w in c.subject | e.subject)
    cos = cos_without(c_text, e_text, names, embed)
    return cos is not None and cos >= SAID_OTHERWISE


def near_for_the_name(
    c_text: str,
    e_text: str,
    c: Analysis,
    e: Analysis,
    p: Pair,
    about: frozenset[str],
    embed: Embed | None,
) -> float | None:
    """The pair's cosine with the speaker's name (`about`, lower-cased words) masked, when
    both say it and that leaves the pair short of a merge (None otherwise: no embedder,
    or a merge still). Only the speaker's: another name both hold ("Accountant is Mei" / "Mei
    does our books") is what they say, and masked it took true restatements apart (the
    tuning sets' merges 0.9034 -> 0.893 with every shared name masked)."""
    names = frozenset(n for n in about if names_person(c_text, n) and names_person(e_text, n))
    if embed is None or not names or p.contain_existing >= 1.0:
        return None
    cos = cos_without(c_text, e_text, names, embed)
    if cos is None or cos >= p.cos:
        return None
    # The name is a word both hold, too: the stored item's words the candidate repeats are
    # counted without it.
    named = names | {stem(n) for n in names}
    without = replace(p, cos=cos, contain_existing=overlap(c.stems - named, e.stems - named))
    if merge_score(without) >= merge_threshold(c, e):
        return None
    return cos


def kept_apart(
    chosen: JudgeDecision,
    candidate: JudgeItem,
    existing: Sequence[JudgeItem],
    c: Analysis,
    es: Sequence[Analysis],
    pairs: Sequence[Pair],
    embed: Embed | None,
) -> JudgeDecision | None:
    """A create instead of the chosen merge (the rules' or the learned chooser's) when the two
    are near for the speaker's name alone; None to keep the choice."""
    if chosen.action != "merge" or chosen.target is None:
        return None
    t = chosen.target
    about = candidate.speaker_words
    alone = near_for_the_name(
        candidate.context, existing[t].context, c, es[t], pairs[t], about, embed
    )
    if alone is None:
        return None
    why = f"near for the name alone (cos {pairs[t].cos:.2f}, {alone:.2f} without it)"
    return JudgeDecision("create", None, f"{why}: not {chosen.reason}")
