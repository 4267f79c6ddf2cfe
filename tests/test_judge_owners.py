"""Whose a relative, a pet or a thing is, for the dedup judge: someone else's is never merged
into the user's own (a fact would be lost), and the same owner named on both sides is one
subject. Written by hand for the mechanism (core/judge_who._held_apart, judge_rules' owners,
judge_lexicon.bare of a plural's possessive); none from the case sets."""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_lexicon import words
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.models.embedder import Embedder, get_embedder
from tests.judge_helpers import judge


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder()


def test_a_plurals_possessive_is_read_as_one() -> None:
    assert words("Parents' car is a Golf")[0] == "Parents'"
    assert words("the twins’ nursery")[1] == "twins’"
    assert words("Sister's bike") == ["Sister's", "bike"]
    parents = analyse("Parents' car is a Golf")
    assert parents.possessed and parents.held_by == {"parents"}
    assert analyse("Ana's API gateway times out").held_by == frozenset()  # a name: maybe hers
    assert parents.tokens[0] == "parents"
    # the user's own thing, said so: the user is its subject, held by nobody else
    own = analyse("User's own wedding anniversary is 22 May")
    assert own.subject == {"user"} and own.held_by == frozenset()
    assert analyse("Partner's sister is vegan").held_by == {"partner"}


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Partner's sister is vegan", "Sister is vegan"),
        ("Brother's dog is called Rex", "Has a dog called Rex"),
        ("Mum's cat is a Siamese", "Cat is a Siamese"),
        ("Partner's mum lives in Leeds", "Mum lives in Leeds"),
        ("Parents' car is a Golf", "Car is a Golf"),
        ("User's car is a Golf", "Brother's car is a Golf"),
        (
            "Parents' 40th wedding anniversary is on 22 May",
            "User's own wedding anniversary is 22 May",
        ),
    ],
)
def test_someone_elses_is_not_the_users_own(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    d = judge(embedder, candidate, [stored])
    assert d.action == "create", d.reason


@pytest.mark.parametrize(
    ("candidate", "stored", "action"),
    [
        ("Lena's dog is called Rex", "Lena has a dog called Rex", "merge"),
        ("Lena's sister is vegan", "Lena's sister Mia is vegan", "merge"),
        ("Brother's dog Rex died", "Brother has a dog called Rex", "supersede"),
        # a name may be the speaker's own: "Our API gateway", said by Ana
        (
            "The API gateway times out requests after 30 seconds, keep calls short.",
            "Ana's API gateway times out requests after 30 seconds.",
            "merge",
        ),
    ],
)
def test_the_same_owner_named_on_both_sides_is_one_subject(
    embedder: Embedder, candidate: str, stored: str, action: str
) -> None:
    d = judge(embedder, candidate, [stored])
    assert (d.action, d.target) == (action, 0), d.reason


def test_a_neighbours_pet_is_not_the_users(embedder: Embedder) -> None:
    for owner in ("Neighbour's", "Neighbours'"):
        d = judge(embedder, f"{owner} dog barks at night", ["Dog barks at night"])
        assert d.action == "create", (owner, d.reason)


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Noor's grandparents live in Izmir", {"grandparents"}),
        ("Noor's granny knits her a jumper every winter", {"grandmother"}),
        ("Noor's grandkids visit on Sundays", {"grandchild"}),
    ],
)
def test_grandparents_and_grandchildren_are_whom_an_item_is_about(text: str, who: set[str]) -> None:
    # the relative is the subject, not Noor, whose relative they are
    assert analyse(text).subject == who


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Oskar and Wiebke split up in the spring", {"oskar", "wiebke"}),
        ("Oskar and his brother run a bike shop", {"oskar", "brother"}),
    ],
)
def test_two_people_joined_by_and_are_both_the_subject(text: str, who: set[str]) -> None:
    assert analyse(text).subject == who


def test_salt_and_pepper_are_no_pair_of_people() -> None:
    assert not analyse("Salt and pepper are in the cupboard").subject & {"salt", "pepper"}


def test_a_couple_parting_ends_the_stored_relationship(embedder: Embedder) -> None:
    existing = [
        "Oskar is saving for a cargo bike",
        "Oskar has been going out with Wiebke since 2022",
        "Wiebke's sister lives in Kiel",
    ]
    d = judge(embedder, "Oskar and Wiebke broke up in the spring; he's taking it hard", existing)
    assert (d.action, d.target) == ("supersede", 1), d


@pytest.mark.parametrize(
    "text",
    [
        "Noor saw Arcade Fire in Berlin with her cousin",
        "Noor swam the Channel in a relay team",
        "Noor rode the Étape du Tour in July",
    ],
)
def test_a_name_before_an_irregular_past_is_the_subject(text: str) -> None:
    # not the band, the race or the conference named after the verb
    assert analyse(text).subject == {"noor"}


def test_a_relative_of_one_of_two_people_is_neither(embedder: Embedder) -> None:
    """ "Tom's brother is a chef in Leeds" was merged into "Tom and Ana run a cafe in Leeds"
    (the brother lost): Tom is named on both sides, once only as whose brother it is."""
    stored = ["Tom and Ana run a cafe in Leeds", "Ana grew up in Porto"]
    d = judge(embedder, "Tom's brother is a chef in Leeds", stored)
    assert d.action == "create", d
    # ... and the two people of the stored item are still its subject
    again = judge(embedder, "Tom and Ana have run the cafe in Leeds since 2019", stored)
    assert (again.action, again.target) == ("merge", 0), again
