"""The dedup judge reads an uncued update worded otherwise: two sentences that say the same of one
slot once their values are masked (judge_slots.same_frame, with the real embedder), and a value
that moved is a supersede; two attributes that share a unit stay two records.

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.judge import JudgeItem
from memory_pipelines.core.judge_slots import masked, same_frame
from memory_pipelines.core.judge_values import typed_values
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from tests.judge_helpers import judge


def test_masked_replaces_every_kind_of_value() -> None:
    assert masked("Physio is on Tuesdays at 10am, £45 a session") == (
        "Physio is on N at N, N a session"
    )
    assert masked("Takes twenty mg twice a day from 3 March") == "Takes N mg N a day from N N"
    assert masked("Lives in Leeds") == "Lives in Leeds"


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the dose reworded ("takes ... every morning" / "dose: ... daily")
        (
            "Takes 20 mg of citalopram every morning",
            ["Citalopram dose: 10 mg daily", "GP is Dr Nair"],
        ),
        # the day and the time moved together: two values of one slot
        (
            "Physio appointment is Friday at 3",
            ["Physio appointment is on Tuesdays at 10am", "Physio is Dr Lamb"],
        ),
    ],
)
def test_uncued_update_in_other_words_supersedes(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d
    assert "other words" in d.reason
    # Without the model the words alone do not tie the two (a new record), unless both measure
    # one thing in one unit (judge_counts: "20 mg" / "10 mg" of citalopram).
    bare = judge(embedder, candidate, existing, with_model=False)
    assert bare.action == "create" or bare.reason.startswith("same measure"), bare


def test_two_attributes_sharing_a_unit_stay_two(embedder: Embedder) -> None:
    existing = ["Set a budget of £700 for the Rome trip", "Rome trip is in May"]
    assert not same_frame("Spent £900 on the Rome trip altogether", existing[0], embedder.embed)
    assert judge(embedder, "Spent £900 on the Rome trip altogether", existing).action == "create"


def test_local_backend_hands_the_judge_its_embedder(embedder: Embedder) -> None:
    """The local backend (what `save_with_dedup` and `eval judge` run) reads the update."""
    existing = ["Citalopram dose: 10 mg daily", "GP is Dr Nair"]
    candidate = "Takes 20 mg of citalopram every morning"
    vecs = embedder.embed([candidate, *existing])
    d = LocalBackend(embedder).judge(
        JudgeItem(candidate, "fact"),
        [JudgeItem(t, "fact", valid_from="2024-03-01") for t in existing],
        vecs[0],
        vecs[1:],
        ModelCall("classify", "judge", "local", "rules"),
    )
    assert (d.action, d.target) == ("supersede", 0), d


@pytest.mark.parametrize(
    ("text", "money"),
    [
        ("Salary: USD 91,500 gross", {"money": {"91500"}}),
        ("Rent is 1,150 EUR", {"money": {"1150"}}),
        ("Puts CHF 300 a month into savings", {"money": {"300"}, "money a year": {"3600"}}),
    ],
)
def test_an_iso_currency_code_makes_an_amount_money(text: str, money: dict[str, set[str]]) -> None:
    values = typed_values(text)
    assert {k: set(v) for k, v in values.items() if k.startswith("money")} == money
    assert not any(k.startswith("n:") for k in values)  # not a count of "usd" or "gross"


def test_a_salary_in_iso_code_changed_supersedes(embedder: Embedder) -> None:
    d = judge(embedder, "Salary is USD 98,000", ["Salary: USD 91,500 gross", "Bonus lands in June"])
    assert (d.action, d.target) == ("supersede", 0), d


def test_a_salary_said_again_with_a_new_figure_replaces_what_was_earned(
    embedder: Embedder,
) -> None:
    """'Salary' and 'earns' name one slot, which holds one figure at a time: the two sentences
    share no word of it, and had been kept side by side as two attributes."""
    d = judge(
        embedder,
        "Salary is now £71k after moving to the platform team",
        ["Earns 64 thousand a year", "Pension contributions are 5% of pay"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    "candidate",
    [
        # leaving the home one shared: "moved out of", into somewhere new
        "Tomasz finally moved out of his sister's place into a flat above a bakery in Wola",
        # going back to where one came from
        "Tomasz moved back to Gdańsk in April",
    ],
)
def test_moving_in_other_words_is_the_residence_slot(embedder: Embedder, candidate: str) -> None:
    # "lives with his sister" is where Tomasz lives, not what his studio's street says
    existing = [
        "Tomasz rents a studio for his photography in Wola",
        "Tomasz lives with his sister in Mokotów while he saves for a deposit",
        "Tomasz's sister teaches maths",
    ]
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 1), d


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the new place is where the other person lives already
        (
            "Moved in with my boyfriend Arjun in Headingley in March",
            ["Arjun lives in Headingley", "Lives in a flat share in Hyde Park", "Works in Leeds"],
        ),
        (
            "Ottilie moved back to Lyon to be near her grandparents",
            ["Ottilie's grandparents live in Lyon", "Ottilie lives in Paris, near the Bastille"],
        ),
    ],
)
def test_a_move_changes_the_movers_home_not_the_one_moved_to(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 1), d


def test_another_amount_in_a_one_value_slot_replaces_the_first(embedder: Embedder) -> None:
    # no cue: the income slot holds one amount, and the new one is another
    existing = ["Wants to hit £60k within three years", "Earns £39,000 a year", "Pension is 6%"]
    d = judge(embedder, "Salary is £47,000 following the restructure", existing)
    assert (d.action, d.target) == ("supersede", 1), d
    # the same amount said again is no change
    same = judge(embedder, "Salary is £39,000 a year", existing)
    assert same.action != "supersede", same


def test_a_role_at_a_named_organisation_is_the_employer_slot(embedder: Embedder) -> None:
    existing = [
        "Dorota's husband is a pilot",
        "Dorota works as a junior accountant at a builders' merchant in Gdynia",
        "Dorota did an ACCA course in 2021",
    ]
    d = judge(embedder, "Dorota is a financial analyst at Allegro", existing)
    assert (d.action, d.target) == ("supersede", 1), d


def test_living_alone_after_sharing_is_the_residence_slot(embedder: Embedder) -> None:
    existing = [
        "Ilka's studio is in Neukölln",
        "Ilka shares a flat with her cousin Merle",
        "Merle is studying law",
    ]
    d = judge(embedder, "Ilka lives on her own now that her flatmate moved out", existing)
    assert (d.action, d.target) == ("supersede", 1), d
