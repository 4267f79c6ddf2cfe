"""What settles or grows a stored item without the old words: a goal reached or given up, the
outcome of what was awaited, a wedding, one more joined to a list, and a guess at another
value (judge_modality.goal_reached, judge_rules._ongoing, judge_cues, judge_claims).

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_claims import claims
from memory_pipelines.core.judge_cues import change_cues
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def judge_kinds(
    embedder: Embedder, candidate: tuple[str, str], existing: list[tuple[str, str]]
) -> JudgeDecision:
    """Like judge(), each item with its own category: (text, category)."""
    items = [JudgeItem(t, cat, valid_from="2024-03-01") for t, cat in existing]
    vecs = embedder.embed([candidate[0], *(t for t, _ in existing)])
    return decide(
        JudgeItem(candidate[0], candidate[1]), items, vecs[0], vecs[1:], embed=embedder.embed
    )


@pytest.mark.parametrize(
    ("candidate", "goal", "other"),
    [
        (
            "Passed the bar exam at the second attempt!",
            "Pass the bar exam, first sitting booked for July",
            "Brother passed his exams last year",
        ),
        (
            "Finished the Camino on the third try",
            "Walk the whole Camino de Santiago, setting off on 2 May",
            "Partner walked the Camino in 2019",
        ),
        (
            "Gave up on the half marathon, my knee won't take it",
            "Run a half marathon this year",
            "Runs with the club on Sundays",
        ),
    ],
)
def test_a_goal_reached_or_given_up_settles_it(
    embedder: Embedder, candidate: str, goal: str, other: str
) -> None:
    d = judge_kinds(embedder, (candidate, "fact"), [(goal, "goal"), (other, "fact")])
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_progress_towards_a_goal_settles_nothing(embedder: Embedder) -> None:
    d = judge_kinds(
        embedder,
        ("Booked a first lesson with a cello teacher", "fact"),
        [("Learn to play the cello", "goal"), ("Plays piano to grade 5", "fact")],
    )
    assert d.action != "supersede", d.reason
    # ... nor does another goal beside it
    d = judge_kinds(
        embedder,
        ("Finish a full marathon next year", "goal"),
        [("Run a half marathon this year", "goal"), ("Runs with the club on Sundays", "fact")],
    )
    assert d.action != "supersede", d.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        (
            "The mortgage with Halden Bank was approved yesterday",
            "Applied for a mortgage with Halden Bank, waiting for an answer",
        ),
        (
            "Visa for the Canada job came through this morning",
            "Canada work visa application is pending at the consulate",
        ),
        ("The office lease got signed on Friday", "Negotiating the lease for the new office"),
    ],
)
def test_the_outcome_of_what_was_awaited_settles_it(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    d = judge(embedder, candidate, [stored, "Works from home on Mondays"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_wedding_settles_an_engagement(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Cousin Bea married Tomasz in a small ceremony in Krakow",
        ["Bea is engaged to Tomasz", "Bea works as a vet"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Cousin Bea married Tomasz in May", True),
        ("Bea is getting married in May", False),
        ("Bea is married to Tomasz", False),
        ("Signed up for the climbing wall", False),
    ],
)
def test_what_reports_a_status_moved(text: str, status: bool) -> None:
    assert ("status" in change_cues(text)) is status


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("The grant was approved", True),
        ("Her transfer request got turned down, then got approved", True),
        ("Feels accepted and supported by the group", False),
        ("Signed up for the climbing wall", False),
    ],
)
def test_what_reports_an_outcome(text: str, outcome: bool) -> None:
    assert ("outcome" in change_cues(text)) is outcome


def test_an_outcome_replaces_no_event_that_awaited_nothing(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Tariq got accepted onto the graduate scheme at Brightwell",
        ["Tariq had an interview at Brightwell on Tuesday", "Tariq studies economics"],
    )
    assert d.action != "supersede", d.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ravi joined Mia and Jo on the weekend support rota", "Weekend support rota: Mia and Jo"),
        (
            "Has a wasp sting allergy in addition to the penicillin and latex ones",
            "Allergic to penicillin and latex",
        ),
    ],
)
def test_one_more_joined_to_a_list_grows_it(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    d = judge(embedder, candidate, [stored, "Keeps an inhaler at work"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        # one more added in a clause after the whole stored list
        (
            "Keeps chickens and ducks, and last spring she took on two goats as well",
            "Keeps chickens and ducks",
        ),
        # an aside between the joining word and the last member
        ("Knits scarves, hats and, since the winter, socks", "Knits scarves and hats"),
        # "as well as" joins a member to the list
        (
            "Tomas's stall now sells chutneys and jams as well as his pickled beetroot",
            "Tomas has a market stall where he sells his own pickled beetroot",
        ),
    ],
)
def test_a_list_said_again_with_one_more_grows_it(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    """A merge keeps the stored words: the member added would be lost."""
    d = judge(embedder, candidate, [stored, "Lives on a smallholding near Hexham"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_more_said_beside_a_list_not_said_again_replaces_nothing(embedder: Embedder) -> None:
    """ "also" after a list grows it only when the stored list is said again whole: "Ines and
    Tom also have a dog" is no new value of "Ines and Tom have a cat"."""
    assert not claims("Ines and Tom also have a dog").adds_after_list
    d = judge(embedder, "Ines and Tom also have a dog", ["Ines and Tom have a cat"])
    assert d.action != "supersede", d.reason


def test_a_guess_at_another_value_restates_nothing(embedder: Embedder) -> None:
    stored = ["Weighs 75 kg", "Is 1.80 m tall"]
    d = judge(embedder, "Seems to weigh around 82 kg", stored)
    assert (d.action, d.target) == ("supersede", 0), d.reason
    # the same value guessed is a restatement
    d = judge(embedder, "Seems to weigh around 75 kg", stored)
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_a_level_reached_is_a_change_however_it_is_hedged(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Cholesterol appears to be down to 4.9",
        ["Cholesterol was 6.2 at the last check", "Takes a statin at night"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        (
            "Broadband is £38 a month since the price hike",
            "Broadband with Fibrenet costs £30 monthly",
        ),
        (
            "Takes home £2,900 a month after the pay rise",
            "Take-home pay is £2,600 per month",
        ),
    ],
)
def test_a_rise_named_as_a_noun_moves_the_number(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    d = judge(embedder, candidate, [stored, "Partner's phone plan is £12 a month"])
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_the_rest_is_no_member_of_a_list() -> None:
    assert claims("Priya and others painted the hall and cleaned the garden").members == set()
    assert claims("Owen, Ruth and everyone else came").members == {"owen", "ruth"}


def test_not_just_adds_rather_than_denies(embedder: Embedder) -> None:
    said = "Climbing is a whole way of life for Dario, not just a weekend sport"
    assert not any(clause.negative for clause in claims(said).clauses)
    assert not claims("Not only cheaper but faster too").denies
    d = judge(embedder, said, ["Dario loves climbing as a weekend sport", "Dario works in IT"])
    assert d.action != "supersede", d.reason


def test_a_member_said_to_have_gone_leaves_the_list(embedder: Embedder) -> None:
    """ "since Marta changed teams" names Marta, but as gone: the list shrank to two."""
    assert claims("Since Marta changed teams it's only Yusuf and Kim").departed == {"marta"}
    d = judge(
        embedder,
        "The support rota is now just Yusuf and Kim, since Marta changed teams",
        ["Support rota: Yusuf, Kim, Marta", "Support tickets close within two days"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason
