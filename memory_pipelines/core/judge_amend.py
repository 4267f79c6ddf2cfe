"""A value put right, for the dedup judge: the candidate names the old value it corrects.

"Son Kai is actually allergic to cashews, not peanuts" beside "Kai is allergic to peanuts",
"Milo's birthday is 14 April (User corrected the earlier 4 April)" beside "Milo's birthday: 4
April": the candidate says which stored value was wrong, in an aside ("not Y", "rather than Y",
"corrected the earlier Y", "previously Y"), and gives another. The stored item of the
candidate's subject that holds Y, and not what the candidate now says, is corrected
(supersede), however near the two read: most of their words are the same.

`corrections.correction` reads "March 10, not March 3" (two values of one kind) into the cue
"corrected"; this reader takes any old value the aside names, and asks the store whether an
item held it.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core.judge_lexicon import content_stems, words
from memory_pipelines.core.judge_pairs import Pair, nearest
from memory_pipelines.core.judge_rules import Analysis
from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.core.judge_values import read_values
from memory_pipelines.core.patterns import rx

# A corrected claim says all but its value again, so the two read near: "plain JavaScript, not
# TypeScript, for the one-off scripts" beside "All new frontend code is TypeScript" is far.
AMEND_FLOOR = 0.55
_END = r"(?=\s*(?:[,;.)!?]|$|\b(?:per|according|as|but|so|because|after)\b))"
_OLD = r"(?:the |an? )?(?P<{}>[^,;.()]+?)" + _END
_ASIDE = rx(
    r"(?:^|[,;(—–-])\s*(?:and |but )?(?:not|rather than|instead of) "
    + _OLD.format("a")
    + r"|\bcorrect(?:ed|ing|s)? (?:the |an? )?(?:earlier|previous|old|wrong|first) "
    + _OLD.format("b").replace("(?:the |an? )?", "", 1)
    + r"|\b(?:previously|formerly|wrongly (?:noted|given|said) as) "
    + _OLD.format("c")
)


def _old_values(text: str) -> list[tuple[int, str]]:
    """(where the aside starts, the old value as written) for each aside naming one."""
    out = []
    for m in _ASIDE.finditer(text):
        old = m.group("a") or m.group("b") or m.group("c")
        if content_stems(words(old)):
            out.append((m.start(), old))
    return out


def _flat(values: dict[str, frozenset[str]]) -> frozenset[str]:
    """Typed values whatever they count: "size 12" and "12 shoes" hold one 12."""
    return frozenset(v for k, vs in values.items() if k not in ("month", "year") for v in vs)


def _holds(e: Analysis, old: str) -> bool:
    """`e` holds the old value: its words, and its typed values (dates, numbers) if any."""
    return content_stems(words(old)) <= e.stems and _flat(read_values(old)[0]) <= _flat(e.values)


def _new_elsewhere(c: Analysis, e: Analysis, start: int, old: str) -> bool:
    """The value said in the old one's place is not in `e` ("flashcards, not long summaries"
    beside "Revises with flashcards; long summaries don't stick" restates the choice): a typed
    value, when the old one is typed, else the word just before the aside."""
    old_values = _flat(read_values(old)[0])
    if old_values:
        return bool(_flat(c.values) - old_values - _flat(e.values))
    head = content_stems(words(c.text[:start])[-1:])
    return bool(head) and not head <= e.stems


def value_put_right(
    c: Analysis, es: Sequence[Analysis], pairs: Sequence[Pair]
) -> JudgeDecision | None:
    """The stored item of the candidate's subject that holds the old value the candidate
    names, and not the value said in its place, is corrected."""
    olds = _old_values(c.text)
    if not olds:
        return None
    held = [
        p
        for p in pairs
        if not p.subject_conflict
        and p.cos >= AMEND_FLOOR
        and p.same_category
        and any(
            _holds(es[p.index], old) and _new_elsewhere(c, es[p.index], start, old)
            for start, old in olds
        )
    ]
    return nearest(held, "supersede", "a stored value put right (the old one named)")
