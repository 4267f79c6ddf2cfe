"""Whether one item mentions what another names, for the dedup judge.

A name is mentioned as written ("React"), as the first part of a compound ("React-only") or by
its adjective ("European" mentions Europe, "Korean" Korea). An old value a change names is found
in a stored item as written or as the head that ends a closed compound ("statin" in
"atorvastatin", "berries" in "strawberries"): a change often names the old value by its wider
word.
"""

from __future__ import annotations

from memory_pipelines.core.judge_rules import Analysis

NAME_STEM_MIN = 5  # letters a name needs before its adjective's ending is read as it
HEAD_MIN = 5  # letters a word needs to be read as the head of a longer closed compound


def heads_overlap(stems: frozenset[str], old: frozenset[str]) -> float:
    """Share of the old value's words found in `stems`, a word also found as the head that
    ends a closed compound ("statin" in "atorvastatin", "berries" in "strawberries"): a change
    often names the old value by its wider word."""
    if not old:
        return 0.0
    found = sum(
        w in stems or (len(w) >= HEAD_MIN and any(s.endswith(w) for s in stems)) for w in old
    )
    return found / len(old)


def mentions(a: Analysis, name: str) -> bool:
    # "React-only" mentions React; "X-T4" does not mention "X100V".
    if name in a.tokens or name in a.entities or name.split("-")[0] in a.tokens:
        return True
    # "European trips" mentions Europe, "Korean food" Korea: a name with its adjective's ending
    # ("invested" is no adjective of "Invest").
    return len(name) >= NAME_STEM_MIN and any(
        t.startswith(name) and t[len(name) :] in _NAME_ADJECTIVE_ENDINGS for t in a.tokens
    )


_NAME_ADJECTIVE_ENDINGS = frozenset({"an", "n", "ans", "ns"})
