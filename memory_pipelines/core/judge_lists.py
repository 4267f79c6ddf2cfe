"""A list of names that grew, for the dedup judge: "Babysitters are Nadia, Grandpa Eamon and
Orla" beside "Babysitters are Nadia and Grandpa Eamon".

`judge_claims.list_change` reads lists whose members are plain heads of a coordination. A list
of names is often written with more around each member ("Leo (9), Maya (6) and baby Ada",
"English, German and, now, conversational Italian"), and its frame in other words ("subscribes
to" / "subscriptions"). Here the members are the names: the text is cut at its list separators
(commas, "and", "&", "plus"), and a run of pieces that each hold a name (a short aside such as
"now" between them aside) is one list. A stored list of two or more names, every one of them
in the candidate's list, and one name more there, is a grown list: the new value of its slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core.judge_claims import LIST_SLOT_COS
from memory_pipelines.core.judge_lexicon import words
from memory_pipelines.core.judge_mentions import mentions
from memory_pipelines.core.judge_pairs import Pair, long_allowance
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision

_SEPARATOR = re.compile(r"(,\s*(?:and\s+|or\s+)?|\s+(?:and|&|plus),?\s+)", re.IGNORECASE)
_CONJUNCTION = re.compile(r"\b(?:and|or|plus)\b|&", re.IGNORECASE)
ASIDE_WORDS = 1  # a piece this short without a name ("now") does not end a list
_JOINED = re.compile(r"\b(?:joined|joins|was added to|got added to)\b", re.IGNORECASE)


def name_lists(a: Analysis) -> list[list[frozenset[str]]]:
    """The runs of list pieces that each hold a name, the names of each piece; a list has two
    pieces or more, one of them joined by a conjunction ("Mum, Orla, lives in ..." lists
    nothing)."""
    runs: list[list[frozenset[str]]] = []
    current: list[frozenset[str]] = []
    joined = False
    parts = _SEPARATOR.split(a.text)
    for i in range(0, len(parts), 2):
        toks = [w.lower().removesuffix("'s") for w in words(parts[i])]
        held = frozenset(t for t in toks if t in a.names)
        if held:
            current.append(held)
        elif len(toks) > ASIDE_WORDS:
            if joined:
                runs.append(current)
            current, joined = [], False
        if current and i + 1 < len(parts) and _CONJUNCTION.search(parts[i + 1]):
            joined = True
    if joined:
        runs.append(current)
    return [r for r in runs if len(r) >= 2]


def name_list_grew(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """A stored list of names that a list of the candidate's holds whole, with a member more."""
    c_lists = name_lists(c)
    if not c_lists:
        return None
    # "Dara joined the on-call rota alongside Ana, Ben and Chidi": the one who joins is a
    # member more, though the list's first piece holds them with a member already stored
    joiners = c.subject & c.names if _JOINED.search(c.text) else frozenset()
    for p in sorted(pairs, key=lambda p: -p.cos):
        e = es[p.index]
        if p.subject_conflict or p.cos < LIST_SLOT_COS + long_allowance(c, e):
            continue
        for stored in name_lists(e):
            names = frozenset().union(*stored)
            for listed in c_lists:
                # every stored member in a piece of the candidate's list, and a piece more
                # whose names the stored item lacks
                kept = all(any(m & piece for piece in listed) for m in stored)
                joined = any(n not in names and not mentions(e, n) for n in joiners)
                if kept and (
                    joined
                    or any(
                        not piece & names and not any(mentions(e, n) for n in piece)
                        for piece in listed
                    )
                ):
                    return JudgeDecision(
                        "supersede", p.index, "the list of names grew: a new value of the slot"
                    )
    return None
