"""More typed values for the dedup judge: how often something happens (judge_rhythms).

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_modes import CONDITION
from memory_pipelines.core.judge_values import typed_values
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


@pytest.mark.parametrize(
    ("text", "rhythm"),
    [
        ("Bins go out fortnightly", "2 week"),
        ("Bins go out every other Tuesday", "2 week"),
        ("Recycling goes every two weeks", "2 week"),
        ("Cleaner comes every Sunday night", "1 week"),
        ("Wants to be invoiced once a quarter", "3 month"),
        ("Invoices go out quarterly", "3 month"),
        ("Backups run nightly", "1 day"),
        ("Takes it each morning", "1 day"),
        ("Goes to the gym three times a week", "3x 1 week"),
        ("Dentist check-ups twice-yearly", "2x 1 year"),
        ("On call every fourth week", "4 week"),
    ],
)
def test_rhythm_is_read_in_any_wording(text: str, rhythm: str) -> None:
    assert typed_values(text)["every"] == {rhythm}


def test_an_amounts_period_is_no_rhythm() -> None:
    assert "every" not in typed_values("Pays £250 monthly for the car")
    assert typed_values("Pays £250 monthly for the car")["money a year"] == {"3000"}
    assert "every" not in typed_values("Rent is 1,150 euros a month")
    assert "every" not in typed_values("Each way takes 40 minutes")


def test_once_a_period_is_no_condition() -> None:
    assert not CONDITION.search("Prefers to be invoiced once a quarter")
    assert not CONDITION.search("Waters the ferns once every two weeks")
    assert CONDITION.search("Backups count once a restore has been tested")
    assert CONDITION.search("Will move once the lease ends")


@pytest.mark.parametrize(
    ("candidate", "existing", "category"),
    [
        # a choice of another rhythm, said without a cue
        (
            "Wants the newsletter once a quarter",
            ["Wants the newsletter monthly", "Newsletter goes to the whole team"],
            "preference",
        ),
        # the same slot, its rhythm in other words
        (
            "Window cleaner comes every four weeks",
            ["Window cleaner comes once a month", "Pays the window cleaner in cash"],
            "fact",
        ),
    ],
)
def test_another_rhythm_of_one_slot_supersedes(
    embedder: Embedder, candidate: str, existing: list[str], category: str
) -> None:
    d = judge(embedder, candidate, existing, category=category)
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # one rhythm said two ways
        (
            "Bins go out every other Tuesday",
            ["Bin collection is fortnightly, on Tuesdays", "Recycling box is blue"],
        ),
        (
            "Sees the physio once a week",
            ["Physio is every Tuesday at 8am", "Physio is Dr Lamb"],
        ),
        # an amount per month and per year: one amount, whatever "paid monthly" adds
        (
            "Car insurance is £780 a year, paid monthly",
            ["Car insurance costs £65 a month", "Car is a Skoda"],
        ),
        (
            "Gym costs £1,200 a year",
            ["Gym membership is £100 a month", "Goes to the gym on Mondays"],
        ),
    ],
)
def test_one_rhythm_in_other_words_merges(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_another_rhythm_of_another_thing_is_new(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "The QA database is copied from production every Sunday night",
        ["Production is backed up nightly at 1am", "QA runs on one server"],
    )
    assert d.action == "create", d.reason


# Whose it is: a thing of a named person's ("Maya's dentist") beside the same thing without an
# owner (the user's own) is another subject (judge_who, Analysis.owners).


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Maya's dentist is Dr Hale at Brookside Dental",
            ["Dentist is Dr Hale at Brookside Dental", "Sister Maya lives in Leeds"],
        ),
        (
            "Dentist is Dr Hale at Brookside Dental",
            ["Maya's dentist is Dr Hale at Brookside Dental", "Sister Maya lives in Leeds"],
        ),
        ("Tom's car is a blue Honda Jazz", ["Car is a blue Honda Jazz", "Colleague Tom drives"]),
    ],
)
def test_a_named_persons_thing_is_not_the_users(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action == "create", d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the stored item names the owner: the same person's
        (
            "Gabe's GP is Dr Rahman at Elm Street Surgery",
            ["Gabe is registered with Dr Rahman at Elm Street Surgery", "Partner Gabe has asthma"],
        ),
        # a capital that opens the sentence is no name ("Landlord's", "Team's")
        ("Landlord's name is Mr Hawes", ["Landlord is Mr Hawes", "Rent is due on the 1st"]),
        ("Team's languages are Python and Go", ["Team writes Python and Go", "Wants Rust"]),
    ],
)
def test_an_owner_that_is_no_other_person_merges(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("merge", 0), d.reason


# The size of a group, its members named or not ("a team of six" / "the team is nine people"),
# and a weak cue with a changed count of one named thing (judge_values.group_sizes).


def test_group_size_is_read_with_or_without_its_members() -> None:
    assert typed_values("Leads a team of six")["size:team"] == {"6"}
    assert typed_values("Her team is nine people now")["size:team"] == {"9"}
    assert typed_values("Team now has nine people")["size:team"] == {"9"}
    assert "size:pack" not in typed_values("Bought a pack of 10 nappies")  # ten nappies


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        ("Her book club is ten people now", ["Runs a book club of six", "Meets on Thursdays"]),
        (
            "The team now has nine people after two hires",
            ["Leads a team of seven", "Company has about 120 staff"],
        ),
    ],
)
def test_a_group_that_grew_supersedes(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_group_of_people_counts_its_members_whatever_they_are_called(
    embedder: Embedder,
) -> None:
    assert typed_values("Runs a squad of 12 volunteers")["size:squad"] == {"12"}
    d = judge(
        embedder,
        "The squad is fifteen people now after the summer sign-ups",
        ["Runs a squad of 12 volunteers", "The charity's office is in Hull"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_the_same_group_size_merges(embedder: Embedder) -> None:
    d = judge(embedder, "Leads a team of six people", ["Leads a team of six", "Sits on floor 3"])
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_a_part_of_the_day_is_a_value() -> None:
    assert typed_values("Prefers morning meetings")["day_part"] == {"morning"}
    assert typed_values("Runs in the evenings")["day_part"] == {"evening"}


@pytest.mark.parametrize(
    ("candidate", "stored", "action"),
    [
        # a helper's user saw this merged, the old time kept as confirmed
        ("Now prefers afternoon meetings", "Prefers morning meetings", "supersede"),
        ("Maya now prefers afternoon meetings", "Maya prefers morning meetings", "supersede"),
        ("Still prefers morning meetings", "Prefers morning meetings", "merge"),
    ],
)
def test_another_part_of_the_day_is_a_changed_value(
    embedder: Embedder, candidate: str, stored: str, action: str
) -> None:
    d = judge(embedder, candidate, [stored], category="preference")
    assert (d.action, d.target) == (action, 0), d.reason
