"""The judge on the statements a chat between people gives it (issue 16): a list, a negation or
a contrast read where the sentence holds none replaced a true item. Sentences of our own, shaped
like the misreads found in the LoCoMo pass's supersedes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_claims import claims
from memory_pipelines.core.judge_cues import change_cues, negated_verbs
from memory_pipelines.core.judge_pairs import compare
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.core.judge_stance import appraisal_turned, contrast_pair
from memory_pipelines.core.judge_supersede import cued_change
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def _lists(cand: str, stored: str, cos: float) -> tuple[bool, bool]:
    p = compare(0, analyse(cand), [analyse(stored)], cos, ("fact", "fact"))
    return p.list_grew, p.list_by_nearness


@pytest.mark.parametrize(
    ("candidate", "stored", "cos", "read"),
    [
        # Who the two are about is no part of the frame around a list: the person in common
        # does not make "what the bees bring Omar" the slot of "where Omar finds calm".
        ("The bees bring Omar calm and focus.",
         "Omar finds calm in the early mornings at the allotment.", 0.65, (False, True)),
        # a frame said around both lists still makes one slot
        ("Is allergic to penicillin and latex.", "Is allergic to penicillin.", 0.85,
         (True, False)),
        # "so special and something she keeps" lists nothing
        ("Kemi's bond with her coach was so special and something she treasures.",
         "It reminds Kemi of something from her first club.", 0.7, (False, False)),
    ],
)  # fmt: skip
def test_what_a_list_holds_and_grows_from(
    candidate: str, stored: str, cos: float, read: tuple[bool, bool]
) -> None:
    # (grew, grew by nearness alone)
    assert _lists(candidate, stored, cos) == read


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


@pytest.mark.parametrize(
    "text",
    [
        "Lena made sure they knew they're not alone in this.",
        "Dev is not going to miss a single match this season.",
        "A bit sad not being at the coast this summer",
        "Tomas decided not to renew",
    ],
)
def test_a_bare_not_after_a_verb_is_no_contrast(text: str) -> None:
    assert contrast_pair(text) is None


@pytest.mark.parametrize(
    "text",
    ["Wants calls in the morning, not after lunch", "Weighs flour in grams not cups",
     "Takes the train rather than flying"],
)  # fmt: skip
def test_a_contrast_still_reads(text: str) -> None:
    assert contrast_pair(text) is not None


@pytest.mark.parametrize(
    ("fond", "against"),
    [
        # "her love of ..." is a noun, "look like ..." a preposition: no appraisal
        ("Watching the film made Ines value her love of old musicals even more.",
         "Talking about Ines's past isn't always easy."),
        ("Kofi wanted the stall to look like his grandmother's kitchen.",
         "Kofi can't decide about the stall."),
    ],
)  # fmt: skip
def test_a_noun_or_a_preposition_appraises_nothing(fond: str, against: str) -> None:
    assert not appraisal_turned(fond, claims(fond), against, claims(against), frozenset())


def test_an_appraisal_still_turns() -> None:
    a, b = "Loves coriander in everything", "Hates coriander"
    assert appraisal_turned(a, claims(a), b, claims(b), frozenset())
    a, b = "Is happy to take calls after six", "Does not take calls after six"
    assert appraisal_turned(a, claims(a), b, claims(b), frozenset())


@pytest.mark.parametrize(
    "text",
    ["Zara can't wait to show the regulars", "Couldn't believe how fast it sold",
     "Can't help smiling at the photos"],
)  # fmt: skip
def test_eagerness_and_wonder_deny_nothing(text: str) -> None:
    assert not negated_verbs(text)
    assert not claims(text).denies


def test_with_no_cue_only_the_item_a_negation_turned_is_replaced() -> None:
    # Two stored items: the negation turns the first; the second reads as the better target
    # on every other count (nearer, the same frame). With no cue, only a turned item changed.
    c = analyse("Priya can't get bored at all.")
    es = [analyse("Priya gets bored on long drives."), analyse("Priya can't picture a weekend.")]
    turned = replace(compare(0, c, es, 0.5, ("fact", "fact")), polarity_flip=True)
    other = replace(compare(1, c, es, 0.7, ("fact", "fact")), polarity_flip=False, frame_match=True)
    assert not c.cues
    d = cued_change(c, es, [turned, other])
    assert d is not None and (d.action, d.target) == ("supersede", 0), d


@pytest.mark.parametrize(
    ("candidate", "plan", "settled"),
    [
        # near for the person and the telling, nothing of the plan said again
        ("Leila picked up a few new records!",
         "Leila is looking forward to exploring different jazz clubs and bars.", False),
        ("Femi met a few investors and got some useful advice.",
         "Femi is finishing the pitch deck and looking for investors.", True),
        ("Rosa adopted a rescue greyhound from the shelter last week.",
         "Rosa is looking for a dog to adopt, visiting shelters at weekends.", True),
    ],
)  # fmt: skip
def test_a_plan_is_settled_by_a_statement_on_its_topic(
    embedder: Embedder, candidate: str, plan: str, settled: bool
) -> None:
    d = judge(embedder, candidate, [plan])
    assert (d.action == "supersede") is settled, d.reason


@pytest.mark.parametrize(
    ("text", "cue", "cued"),
    [
        # what is new to someone met or tried is no new value
        ("Kwame met new people at the book fair", "new", False),
        ("Ines loves trying out new bread recipes", "new", False),
        ("Dara keeps facing new hurdles with the shop", "new", False),
        ("Learning new chords every week", "new", False),
        ("Got a new phone after the old one broke", "new", True),
        ("Has a new line manager since March", "new", True),
        # what changed a life or an outlook switched no value
        ("The cookery course really changed the game for Bea", "switched", False),
        ("That summer in Lisbon changed Tariq's outlook on work", "switched", False),
        ("Moving abroad changed her life", "switched", False),
        ("Changed banks in the spring", "switched", True),
        ("Changed the bathroom tiles to slate", "switched", True),
        # how something turned out, a thought had again and a vow end or resume nothing
        ("They ended up with a lovely venue by the river", "ended", False),
        ("Sol ended up in hospital for a night", "ended", False),
        ("The tenancy ended in June", "ended", True),
        ("Bea realised again how lucky she is", "resumed", False),
        ("Wiktor never wants to go through that again", "resumed", False),
        ("Swimming again after the operation", "resumed", True),
    ],
)
def test_cue_words_that_report_no_change(text: str, cue: str, cued: bool) -> None:
    assert (cue in change_cues(text)) is cued


def test_the_speakers_name_is_no_value_the_items_share() -> None:
    # In a chat between named people every item names its speaker, in any position.
    c = analyse("It showed Ines how much the club has grown, and made Ines feel she belongs.")
    e = analyse("Serving at the shelter reminded Ines how powerful kindness is.")
    assert compare(0, c, [e], 0.5, ("fact", "fact")).shared_value_names == 1
    said_by_ines = compare(0, c, [e], 0.5, ("fact", "fact"), frozenset({"ines"}))
    assert said_by_ines.shared_value_names == 0 and not said_by_ines.shared_value_words


def test_a_story_told_by_the_speaker_merges_into_no_other_story(embedder: Embedder) -> None:
    candidate = (
        "Hearing the volunteer's story of how he ended up homeless was humbling; it showed Ines"
        " that everyone has a story."
    )
    stored = [
        "Serving meals at the shelter and seeing the smiles reminded Ines how kind people are.",
        "Ines volunteers at the shelter on Thursdays.",
    ]
    vecs = embedder.embed([candidate, *stored])
    d = decide(
        JudgeItem(candidate, "fact", said_by="Ines"),
        [JudgeItem(t, "fact", valid_from="2023-03-01") for t in stored],
        vecs[0],
        vecs[1:],
        embed=embedder.embed,
    )
    assert d.action == "create", d.reason


@pytest.mark.parametrize(
    ("text", "members"),
    [
        # clauses joined by "and": the word before "his" is a verb, no member
        ("Sport is Femi's outlet and music calms his nerves.", set()),
        ("Swimming is Ola's stress relief and fashion fuels her ideas.", set()),
        ("Makes bread and jam for his neighbours", {"bread", "jam"}),
        ("Speaks Twi and Dutch", {"twi", "dutch"}),
    ],
)
def test_a_verb_after_the_last_member_joins_clauses(text: str, members: set[str]) -> None:
    assert claims(text).members == members
