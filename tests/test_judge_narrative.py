"""The dedup judge on what extraction gives it (issue 16): long third-person sentences from a
chat between people, each naming the speaker. A change needs more than the same person and a
near cosine; a long sentence's cosine says less than a short one's.
"""

from __future__ import annotations

from functools import partial

import pytest

from memory_pipelines.core.judge_cues import change_cues
from memory_pipelines.core.judge_merge import MERGE_THRESHOLD, merge_threshold
from memory_pipelines.core.judge_pairs import compare
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge as judge_with

RACE = "Ana ran a half marathon for a cancer charity last Sunday."
NURSE = "Ana works as a nurse in Leeds."


judge = partial(judge_with, said_on="2023-05-01", with_model=False)


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # a weak cue ("starting") with nothing but the person in common
        ("Ana is starting to realise that rest days matter to her.", [RACE, NURSE]),
        # "pushed" with no date in sight is no moved date
        ("The race really pushed Ana to keep going and never give up.", [RACE, NURSE]),
        ("Ana keeps facing new setbacks with the bakery, but she is sure it will pay off.",
         ["Sometimes it's hard when the bakery has a slow week, but Ana believes she will"
          " make it work."]),
        # one more of a kind replaces none of them
        ("Ana finished another quilt for the spring fair with her daughter and loved it.",
         ["Ana and her daughter helped each other with the quilting - it was great bonding."]),
        # a negated copula ("won't be easy") turns no claim round
        ("Ana knows it won't be easy, but she is sure the bakery will pay off.",
         ["Ana keeps facing setbacks at the bakery, but she is sure it will be worth it in the"
          " end."]),
        # the telling's date "(April 2023)" is not the old value of anything
        ("Ana just started going to a climbing gym with her brother last month (April 2023).",
         ["Ana and her colleagues went to a conference together last month (March 2023)."]),
    ],
)  # fmt: skip
def test_the_same_person_and_a_cue_are_no_change(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action != "supersede", d.reason


def test_a_change_of_a_stored_value_still_supersedes(embedder: Embedder) -> None:
    d = judge(embedder, "Ana now works as a paramedic in York.", [RACE, NURSE])
    assert (d.action, d.target) == ("supersede", 1), d.reason
    d = judge(embedder, "Ana's half marathon was pushed to 14 May.", [NURSE, RACE])
    assert (d.action, d.target) == ("supersede", 1), d.reason
    d = judge(
        embedder, "The flat won't be ready until March", ["The flat will be ready in January"]
    )
    assert d.action == "supersede", d.reason


def test_one_stored_value_grows_into_a_list_only_when_the_cosine_says_one_slot() -> None:
    def grew(cand: str, stored: str, cos: float) -> tuple[bool, bool]:
        c, e = analyse(cand), analyse(stored)
        p = compare(0, c, [e], cos, ("fact", "fact"))
        return p.list_grew, p.list_by_nearness

    short = ("Favourite cuisines are Japanese and Ethiopian", "Loves Japanese food")
    assert grew(*short, 0.6) == (True, False) and grew(*short, 0.5) == (False, False)
    long = (
        "Ana says her favourite cuisines these days are Japanese and Ethiopian, which she cooks"
        " at home for the kids most weekends",
        "Ana has loved Japanese food since she was a little girl growing up with her aunt",
    )
    # two long sentences near at 0.6 share a topic, not yet a slot; at 0.8 maybe one, but a
    # stored item that says more than its value is no value a list replaces (by nearness only)
    assert grew(*long, 0.8) == (False, True) and grew(*long, 0.6) == (False, False)


def test_the_merge_threshold_rises_with_length() -> None:
    short = analyse("Takes coffee black")
    long = analyse(
        "Ana is swamped with the kids and the work at the hospital at the moment, she says,"
        " and has no time to paint these days."
    )
    assert merge_threshold(short, short) == MERGE_THRESHOLD
    assert MERGE_THRESHOLD + 0.15 < merge_threshold(long, long) <= 0.8


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        ("The launch got pushed back a week", True),
        ("Vets agreed to push the revised proposal to 19 June", True),
        ("The review was pushed to Friday", True),
        ("Deadline pushed to next month", True),
        ("It really pushed Ana to keep training", False),
        ("Losing the job gave him the push he needed", False),
        ("The app sends push notifications", False),
    ],
)
def test_a_push_moves_a_date_only_back_out_or_to_a_time(text: str, moved: bool) -> None:
    assert ("date moved" in change_cues(text)) is moved
