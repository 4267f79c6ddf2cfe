"""The dedup judge reads what two statements hold apart: a choice that names the stored value as
the one it passed over replaces it (judge_choices.passed_over); a stored item that holds the
chosen thing, or passes over the same thing, is the same choice.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

from functools import partial

import pytest

from memory_pipelines.core.judge import JudgeDecision
from memory_pipelines.core.judge_choices import choice_pair
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge as judge_with

judge = partial(judge_with, category="preference")


def test_choice_pair_reads_chosen_and_passed_over() -> None:
    assert choice_pair("Picked Fastmail over Gmail for the family domain") == (
        frozenset({"fastmail"}),
        frozenset({"gmail"}),
    )
    assert choice_pair("Prefers tea to coffee in the afternoon") is not None
    # "wants X to ..." is a purpose, not a comparison
    assert choice_pair("Wants the kids to learn to swim") is None


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Prefers radio dramas to audiobooks on long drives",
            ["Listens to audiobooks on long drives", "Drives a Honda Jazz"],
        ),
        (
            "Went with Fastmail instead of Gmail for the family email",
            ["Planning to set up Gmail for the family email", "Domain is with Namecheap"],
        ),
    ],
)
def test_choice_over_the_stored_value_supersedes(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d: JudgeDecision = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the stored item already holds the chosen thing
        (
            "Prefers cooking on a gas hob rather than induction",
            ["Wants a gas hob in the new kitchen, not induction", "Oven is a Neff"],
        ),
        # the stored item passes over the same thing
        (
            "Likes villas rather than hotels on holiday",
            ["Books holiday villas instead of hotels", "Travels in August"],
        ),
    ],
)
def test_same_choice_is_not_replaced(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action != "supersede", d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Dog walkers we use: Petra, Uncle Joss and the neighbour's son Milo",
            ["Dog walkers are Petra and Uncle Joss", "Petra charges £12 a walk"],
        ),
        (
            "Reads Dutch, Polish and, lately, basic Greek",
            ["Reads Dutch and Polish", "Grew up in Utrecht"],
        ),
    ],
)
def test_a_list_of_names_with_a_member_more_supersedes(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing, category="fact")
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the same members with detail: no member more
        (
            "Dog walkers: Petra (weekdays) and Uncle Joss (weekends)",
            ["Dog walkers are Petra and Uncle Joss", "Petra charges £12 a walk"],
        ),
        # an apposition and a place, no list: more detail of one fact
        (
            "Aunt Wren still lives in the old farmhouse in Ludlow, near Bromfield",
            ["Aunt, Wren, lives in Ludlow", "Uncle Rob lives in Hereford"],
        ),
    ],
)
def test_names_without_a_grown_list_are_not_a_list_change(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing, category="fact")
    assert d.action != "supersede" or "list" not in d.reason, d.reason


def test_a_shared_name_is_the_value_not_a_frame(embedder: Embedder) -> None:
    # the two hold one person in two wordings: the same fact
    d = judge(
        embedder,
        "Line manager is Tariq Bello",
        ["Reports to Tariq Bello", "Team has nine analysts"],
        category="fact",
    )
    assert (d.action, d.target) == ("merge", 0), d.reason
    # a shared frame with another thing in it stays a near miss
    d = judge(
        embedder,
        "Allergic to Tariq's cat Biscuit",
        ["Allergic to wasps", "Team has nine analysts"],
        category="fact",
    )
    assert d.action != "merge", d.reason


def test_a_list_with_a_member_swapped_is_a_new_value(embedder: Embedder) -> None:
    """ "Checkout takes Visa, Mastercard, Amex and Apple Pay" beside "... Amex and PayPal": a
    member swapped for another replaces the list (the label guide's "a list whose members
    change"); it was neither grown nor shrunk, and a list of other words near it grew."""
    methods = "Payment methods at checkout: Visa, Mastercard, Amex and PayPal"
    stored = [
        "Refunds take five working days",
        "In-store card readers take Visa and Mastercard only",
        methods,
    ]
    d = judge_with(
        embedder, "Payment methods at checkout are Visa, Mastercard, Amex and Apple Pay", stored
    )
    assert (d.action, d.target) == ("supersede", 2), d
    # ... but a list said in other words around its members drops no member ("visited" is no
    # "has been to": Portugal is still a country been to)
    been = judge_with(
        embedder,
        "Visited Spain, France and Italy last summer",
        ["Has been to Spain, France and Portugal", "Lives in Leeds"],
    )
    assert been.action != "supersede", been


def test_one_who_joins_a_stored_list_is_a_member_more(embedder: Embedder) -> None:
    stored = ["Five-a-side team: Kofi, Liam and Raj", "Five-a-side is on Thursdays"]
    d = judge(embedder, "Marco joined the five-a-side team alongside Kofi, Liam and Raj", stored)
    assert (d.action, d.target) == ("supersede", 0), d.reason
    # a member already stored joining again changes nothing
    again = judge(embedder, "Kofi joined the five-a-side team with Liam and Raj", stored)
    assert again.action != "supersede", again.reason
