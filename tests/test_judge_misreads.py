"""The judge on the statements a chat between people gives it (issue 16): a list read where
the sentence holds none replaced a true item. Sentences of our own, shaped like the misreads
found in the LoCoMo pass's supersedes.
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_pairs import compare
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def _lists(cand: str, stored: str, cos: float) -> tuple[bool, bool]:
    p = compare(0, analyse(cand), [analyse(stored)], cos, ("fact", "fact"))
    return p.list_grew, p.list_by_nearness


def test_a_list_that_shares_only_the_person_grew_from_nothing_stored() -> None:
    # Who the two are about is no part of the frame around a list: the person in common does
    # not make "what the bees bring Omar" the slot of "where Omar finds calm".
    assert _lists(
        "The bees bring Omar calm and focus.",
        "Omar finds calm in the early mornings at the allotment.",
        0.65,
    ) == (False, True)
    # A frame said around both lists still makes one slot.
    assert _lists("Is allergic to penicillin and latex.", "Is allergic to penicillin.", 0.85) == (
        True,
        False,
    )


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Gardening and long walks bring Omar calm and quiet.",
         "Growing things makes Omar appreciate the calm of an early morning."),
        ("Omar says his favourite cuisines are Lebanese and Georgian, which he cooks most"
         " Sundays", "Omar has loved Lebanese food since he was a boy growing up in Leeds"),
    ],
)  # fmt: skip
def test_a_list_near_a_stored_item_that_says_more_keeps_both(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    # One slot or two, by nearness alone: neither a replacement (the stored item may say
    # something else) nor a merge (the new members would be lost), with the chooser too.
    d = judge(embedder, candidate, [stored])
    assert d.action == "create", d.reason


def test_a_list_grown_from_a_bare_stored_value_replaces_it(embedder: Embedder) -> None:
    d = judge(embedder, "Favourite cuisines are Lebanese and Georgian", ["Loves Lebanese food"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_pronoun_is_no_member() -> None:
    # "so special and something she keeps" lists nothing
    assert _lists(
        "Kemi's bond with her coach was so special and something she treasures.",
        "It reminds Kemi of something from her first club.",
        0.7,
    ) == (False, False)
