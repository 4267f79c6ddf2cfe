"""Changes the dedup judge reads, and what it must not read as one: a birth states a birth date,
which never changes afterwards, so "was born" is only a weak cue.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_cues import OLD_VALUE, change_cues
from memory_pipelines.core.judge_modes import ADDITIVE
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.core.judge_values import read_values
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import LEARNED_MISS, judge


def test_birth_is_a_weak_cue() -> None:
    assert change_cues("Nephew Otto was born on 3 June") == {"born"}
    assert "status" not in change_cues("Uncle Bram was born in April 1950")


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # the birth date in another form: the same value
        (
            "Uncle Bram was born in April 1950",
            ["Uncle Bram will be 75 next April", "Uncle Bram lives in Utrecht"],
            ("merge", 0),
        ),
        # a birthplace beside where they live: another slot
        (
            "Godmother Ruth was born in Dublin",
            ["Godmother Ruth lives in Cardiff", "Godmother Ruth is a nurse"],
            ("create", None),
        ),
        # a birth date beside another attribute of the same person
        ("Nephew Otto was born on 3 June", ["Otto plays the violin"], ("create", None)),
        # ... and beside another birth date of the same person: corrected
        (
            "Son Abel was born on 14 August",
            ["Son Abel's birthday is 4 August", "Abel goes to nursery"],
            ("supersede", 0),
        ),
    ],
)
def test_birth_changes_no_other_slot(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing, said_on="2025-01-01")
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "target"),
    [
        (
            "Our old dog Bramble was put down on Friday",
            [
                "Bramble is put in kennels when we travel",
                "Has a 15-year-old spaniel called Bramble",
                "Bramble is on joint supplements",
            ],
            1,
        ),
        (
            "Goldie the goldfish died over the weekend",
            [
                "Goldie came from the fair in 2019",
                "Has a goldfish called Goldie",
                "Tank is cleaned every weekend",
            ],
            1,
        ),
        (
            "Sold the Vespa; the parking was a nightmare",
            ["Vespa parking permit costs £60 a year", "Owns a red Vespa scooter"],
            1,
        ),
    ],
)
def test_a_thing_gone_ends_the_item_that_says_it_is_there(
    embedder: Embedder, candidate: str, existing: list[str], target: int
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", target), d.reason


def test_stopping_said_without_stopped() -> None:
    for text in (
        "Came off the blood thinners in May",
        "Weaned off the sleeping pills over the winter",
        "Let the gym membership lapse in March",
        "Unsubscribed from the Fernway Travel newsletter",
        "Opted out of the company pension",
        "Done with crossfit, the knee can't take it",
    ):
        assert "stopped" in change_cues(text), text
    assert "stopped" not in change_cues("Had a memory lapse at work")


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        (
            "Came off the blood thinners in May",
            ["Takes blood thinners every evening", "Has a heart check-up every six months"],
            ("supersede", 0),
        ),
        (
            "Unsubscribed from the Fernway Travel newsletter",
            [
                "Happy to get offers by email from Fernway Travel",
                "Booked a Fernway Travel trip to Crete",
            ],
            ("supersede", 0),
        ),
        (
            "Done with crossfit, the knee can't take it",
            ["Does crossfit three times a week", "Knee surgery was in 2021"],
            ("supersede", 0),
        ),
        # the same membership, still held
        (
            "Still a member of the Pulse gym, renewed in March",
            ["Member of the Pulse gym in town", "Runs on Sunday mornings"],
            ("merge", 0),
        ),
    ],
)
def test_a_habit_ended_supersedes_it(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


def test_a_negation_reaching_any_more_ends_a_habit() -> None:
    assert "no longer" in change_cues("Doesn't eat berries any more because of the reflux")
    assert "no longer" in change_cues("Isn't taking the antihistamine any more")
    # a rule set for what is to come, which the store may hold already
    assert "no longer" not in change_cues("Won't fly long-haul in economy any more")


@pytest.mark.parametrize(
    ("candidate", "existing", "target"),
    [
        # the old value named by the head of a closed compound: statin in simvastatin
        (
            "Stopped taking the statin after the side effects",
            [
                "Cholesterol was 5.9 in March",
                "Takes ramipril for blood pressure",
                "Takes simvastatin 40 mg at night",
            ],
            2,
        ),
        (
            "Doesn't eat berries any more because of the reflux",
            ["Has strawberries with yoghurt every morning", "Takes omeprazole for reflux"],
            0,
        ),
        # "Off the X" opening a note: X stopped
        (
            "Off the beta blockers, the cardiologist stopped them",
            ["Resting heart rate is 62", "Takes beta blockers each morning"],
            1,
        ),
    ],
)
def test_the_old_value_named_by_a_wider_word(
    embedder: Embedder, candidate: str, existing: list[str], target: int
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", target), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # Found by a new-user probe: "Maya is planning to quit her job" replaced "Maya's
        # therapist appointment is every Tuesday", the nearer of two items about Maya for the
        # name alone. Other words here.
        (
            "Omar is planning to quit his job at the bank in May, his boss doesn't know yet.",
            ["Omar prefers window seats on trains", "Omar's piano lesson is every Wednesday"],
            ("create", None),
        ),
        (
            "Lucy has stopped going to the climbing gym.",
            ["Lucy prefers tea to coffee", "Lucy's physio session is every Monday morning"],
            ("create", None),
        ),
        # ... and the nearest, still clearly so without the name, is what ended
        (
            "Tom has stopped drinking alcohol.",
            ["Tom likes jazz", "Tom drinks a glass of red wine most evenings"],
            ("supersede", 1),
        ),
    ],
)
def test_the_nearest_of_items_about_one_person_is_nearest_without_the_name(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


def _decision(embedder: Embedder, candidate: str, plan: str, fact: str) -> tuple[str, int | None]:
    items = [JudgeItem(plan, "decision", valid_from="2025-01-01")]
    items.append(JudgeItem(fact, "fact", valid_from="2025-01-01"))
    vecs = embedder.embed([candidate, plan, fact])
    d = decide(JudgeItem(candidate, "decision"), items, vecs[0], vecs[1:], embed=embedder.embed)
    return d.action, d.target


@pytest.mark.parametrize(
    ("candidate", "plan", "fact", "expected"),
    [
        # a choice made settles the one open choice of its kind, worded apart
        (
            "Bought a refurbished ThinkPad in the end",
            "Leaning towards a new MacBook Air",
            "Works as a freelance translator",
            ("supersede", 0),
        ),
        (
            "Signed up for the Spanish evening class at the college",
            "Thinking about learning Spanish with an app",
            "Spends a month in Valencia each spring",
            ("supersede", 0),
        ),
        # a plan for another date, or of another thing of one kind, stays open
        (
            "Booked flights to Rome for the October half-term",
            "Planning a ski trip for February",
            "Kids' half-term is the last week of October",
            ("create", None),
        ),
        pytest.param(
            "Renewed the car insurance with Harbourline",
            "Considering switching the home insurance to a cheaper provider",
            "Car is a 2018 Skoda Octavia",
            ("create", None),
            marks=LEARNED_MISS,
        ),
        (
            "Adopted a greyhound from the rescue centre",
            "Planning to redo the garden fence in spring",
            "Has a cat called Moss",
            ("create", None),
        ),
    ],
)
def test_a_choice_made_settles_the_one_open_choice_of_its_kind(
    embedder: Embedder, candidate: str, plan: str, fact: str, expected: tuple[str, int | None]
) -> None:
    assert _decision(embedder, candidate, plan, fact) == expected


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        ("Loves olives on pizza", ["Hates olives, can't stand the taste"], ("supersede", 0)),
        (
            "Loves spicy food",
            ["Can't handle very spicy food", "Likes Thai curries"],
            ("supersede", 0),
        ),
        # two denials in other words: one claim
        (
            "Doesn't want texts from the gym",
            ["Gym should only contact by email, never by text", "Gym is PureFit"],
            ("merge", 0),
        ),
        # another value, or an occasion of its own: the rule stands
        ("Fine with meetings on Mondays", ["No meetings on Fridays"], ("create", None)),
        (
            "For birthday cards, glitter is fine",
            ["No glitter in any craft supplies", "Makes cards by hand"],
            ("create", None),
        ),
    ],
)
def test_an_appraisal_turned_round(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing, category="preference")
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Downgraded the gym membership to off-peak",
            ["Has a full-access membership at Pulse gym"],
        ),
        (
            "Upgraded to a Pixel 9 at the weekend",
            ["Phone is a Pixel 6", "Phone contract is with Lumo"],
        ),
        (
            "Energy rating was lowered from B to C after the survey",
            ["Flat has an energy rating of B", "Pays energy bills quarterly"],
        ),
    ],
)
def test_a_level_moved_up_or_down(embedder: Embedder, candidate: str, existing: list[str]) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        ("Remortgaged at 4.5% for two years", ["Mortgage rate is 3.2% fixed", "Balance is £180k"]),
        (
            "Broadband went to £38 a month at renewal",
            ["Broadband costs £29 a month", "Phone line is with Lumo"],
        ),
    ],
)
def test_a_deal_made_again_on_new_terms(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    assert "renewed" in change_cues(candidate)
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # the value changed to is stored: the change was told before
        (
            "Went with Hetzner for the staging boxes because it is cheap",
            ["Staging runs on Hetzner", "Production is on AWS"],
            ("merge", 0),
        ),
        (
            "Switched the blog to Hugo last year to drop the PHP hosting",
            ["Blog is built with Hugo", "Domain is with Gandi"],
            ("merge", 0),
        ),
        # ... the clause with the cue holds the value, the rest is detail
        (
            "Now on the Ledgerly data team, looking after the Airflow pipelines",
            ["Joined the data team at Ledgerly in May", "Ledgerly is based in Leeds"],
            ("merge", 0),
        ),
        # another team of one employer, or an old value named: a change
        (
            "Now on the Ledgerly payments team, looking after the Airflow pipelines",
            ["Works on the data team at Ledgerly", "Ledgerly is based in Leeds"],
            ("supersede", 0),
        ),
        (
            "Switched the blog from WordPress to Hugo",
            ["Blog runs on WordPress", "Domain is with Gandi"],
            ("supersede", 0),
        ),
    ],
)
def test_a_change_told_before(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        (
            "Grant report deadline is Monday 9 March",
            ["Grant report due Friday 27 February", "Grant panel meets on 20 March"],
            ("supersede", 0),
        ),
        (
            "Expenses claim goes in by 5 July",
            [
                "Will send the timesheet by 2 July",
                "Will submit the travel expenses claim before 30 June",
            ],
            ("supersede", 1),
        ),
        # the deadline of another thing, or an event's date: no old value of it
        (
            "VAT return goes in by 7 February",
            ["Will file the tax return by 31 January", "Accountant is Priya"],
            ("create", None),
        ),
        (
            "Conference talk slides due by 2 June",
            ["Conference talk is on 12 June", "Conference is in Porto"],
            ("create", None),
        ),
    ],
)
def test_a_deadline_moved_without_a_cue(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing, category="commitment")
    assert (d.action, d.target) == expected, d.reason


def test_too_before_a_word_is_a_degree_not_an_addition() -> None:
    assert not ADDITIVE.search("Keeping the monolith; the team is too small to run Kafka")
    assert not ADDITIVE.search("Twice-weekly releases were too much QA")
    assert ADDITIVE.search("Partner is registered with Dr Mensah too")
    assert ADDITIVE.search("Son Rory has started cello lessons too, with Mr Obi")


def test_a_degree_blocks_no_restatement(embedder: Embedder) -> None:
    d = judge(embedder, "Walks to work; the bus is too slow", ["Walks to the office every day"])
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_an_hour_joined_to_a_bare_hour_is_a_clock_time() -> None:
    values, _ = read_values("Feeds the dog twice a day, at 8 and 6", None)
    assert values["clock"] == {"8:00", "20:00", "6:00", "18:00"}
    values, _ = read_values("Meets at 7 and 20 people come", None)
    assert values["clock"] == {"7:00", "19:00"}


def test_bare_hours_restate_hours_of_the_day(embedder: Embedder) -> None:
    d = judge(
        embedder, "Walks the dog at 7 and 5", ["Dog walks are at 7am and 5pm", "Has a beagle"]
    )
    assert (d.action, d.target) == ("merge", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        (
            "Sister's will is held by Marsh Legal",
            ["Own will is held by Marsh Legal", "Sister lives in Leeds"],
            ("create", None),
        ),
        (
            "Own GP is Dr Singh",
            ["GP is Dr Singh at Elm Surgery", "Mum's GP is Dr Shah"],
            ("merge", 0),
        ),
    ],
)
def test_own_thing_is_the_users(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        (
            "Emergencies are an exception to the no-calls-after-8pm rule",
            ["No phone calls after 8pm", "Prefers texts"],
            ("create", None),
        ),
        (
            "Weekend lie-ins are the only exception to getting up at six",
            ["Gets up at six every day", "Goes to bed at ten"],
            ("create", None),
        ),
        (
            "Makes no exceptions to the no-phones-at-dinner rule",
            ["No phones at the dinner table", "Dinner is at 7"],
            ("merge", 0),
        ),
    ],
)
def test_the_one_exception_to_a_rule(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # "has gone keto" is a change of the partner's own, not a leaving; the partner's
        # brother is someone else
        (
            "Partner has gone keto since March",
            ["Partner's brother is keto", "Partner is vegetarian", "Eats fish"],
            ("supersede", 1),
        ),
        (
            "Mum's cousin lives in Galway",
            ["Mum lives in Sligo", "Cousin Aoife lives in Cork"],
            ("create", None),
        ),
    ],
)
def test_whose_fact_it_is(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


def test_a_name_with_its_role_set_off_by_commas_is_the_subject() -> None:
    a = analyse("Rosa, the partner, eats a fully vegan diet")
    assert a.subject == {"rosa", "partner"}
    assert analyse("Lena, the younger sister, was born on 9 November").subject >= {"lena"}
    # a list of names is no apposition
    assert "user" in analyse("Likes Rome, the Alps and Lisbon").subject


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Marta, the eldest sister, was born on 2 May",
            ["Mum's birthday is 2 May", "Marta lives in Turin"],
        ),
        (
            "Rocco, our dog, is allergic to chicken",
            ["Allergic to shellfish", "Rocco eats salmon kibble"],
        ),
    ],
)
def test_a_named_role_is_someone_else(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert d.action == "create", d.reason


def test_a_diet_named_as_the_slot(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Vegan since January",
        ["Diet: eats fish and eggs, no red meat", "Loves Thai food"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_seeing_someone_named_is_a_relationship(embedder: Embedder) -> None:
    d = judge(
        embedder,
        "Split up with Tom last month",
        ["Going to Rome with Tom in May", "Seeing Tom, a teacher from Leeds"],
    )
    assert (d.action, d.target) == ("supersede", 1), d.reason


def test_what_still_holds_did_not_change() -> None:
    assert not change_cues("Still can't stand mushrooms, even the new place's pasta")
    assert not change_cues("Changed career to teaching in 2022 and still teaches maths")
    # "still" outside the main clause: the move is still a change
    assert "moved" in change_cues("Moved from Hove to Brighton in May; still on the coast")


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # what one would rather not do is denied there as in the stored item: one rule
        (
            "Would rather cycle than drive anywhere in town",
            ["Doesn't drive for trips in town; cycles instead", "Owns a Brompton"],
            ("merge", 0),
        ),
        (
            "Would rather take the train than fly anywhere within Europe",
            ["Doesn't fly for European trips; goes by rail", "Likes the aisle seat"],
            ("merge", 0),
        ),
        # ... and passed over what the stored item holds: a new choice
        (
            "Would rather take the bus than drive to work",
            ["Drives to work every day", "Office is in Leith"],
            ("supersede", 0),
        ),
    ],
)
def test_what_one_would_rather_not_do(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing, category="preference")
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # "by not sleeping", "from not stretching": a cause named, no denial
        (
            "Back pain flares up from not stretching after runs",
            ["Back pain comes back when skipping the post-run stretches", "Runs 5k"],
            ("merge", 0),
        ),
        (
            "Got fined for not paying the congestion charge",
            ["Pays the congestion charge by app", "Drives into London on Fridays"],
            ("create", None),
        ),
        # ... a "not" of its own still denies
        (
            "Is not drinking alcohol this month",
            ["Drinks a glass of wine most evenings", "Likes red wine"],
            ("supersede", 0),
        ),
    ],
)
def test_not_in_a_cause_named_denies_nothing(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


def test_a_hedged_list_grows_nothing(embedder: Embedder) -> None:
    existing = ["Speaks French and German", "Lives in Ghent"]
    d = judge(embedder, "Probably speaks French, German and Dutch", existing)
    assert (d.action, d.target) == ("merge", 0), d.reason
    d = judge(embedder, "Speaks French, German and Dutch", existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


@pytest.mark.parametrize(
    ("candidate", "cued"),
    [
        ("Correction: the offsite is Wednesday the 15th", True),
        ("Typo: the flat is number 41, not 14", True),
        ("Ines had the date wrong, the party is on the 9th", True),
        ("The corrections team meets on Wednesdays", False),  # the word, not a correction
        ("Got the answer right on the quiz", False),
    ],
)
def test_a_value_said_wrong_and_put_right_is_a_change_cue(candidate: str, cued: bool) -> None:
    assert ("corrected" in change_cues(candidate)) is cued


def test_a_correction_put_as_a_whole_statement_supersedes_the_day_it_corrects(
    embedder: Embedder,
) -> None:
    existing = ["The team offsite is on Tuesday (7 May 2024) the 14th", "The team has six people"]
    d = judge(embedder, "Correction: the offsite is Wednesday the 15th", existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason
    # without the cue a different day is another event, as before
    d = judge(embedder, "The offsite is Wednesday the 15th", existing)
    assert d.action == "create", d.reason


def test_a_change_told_of_the_old_value_first_supersedes_it(embedder: Embedder) -> None:
    """The reason first, then the new value: each item names the other's person, so they
    speak of the same people, not of two."""
    existing = ["Kofi's manager is Priya", "Kofi works in the Leeds office"]
    d = judge(embedder, "Priya left last week, Kofi's new manager is Tom", existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason
    # two people of one role, neither naming the other: still two
    d = judge(embedder, "Colleague Fatima runs the payroll", ["Colleague Tom runs the payroll"])
    assert d.action == "create", d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # the thing whose date moved is another thing than the stored item's: nothing replaced
        (
            "Tom's dentist appointment moved to December 10 at 3pm",
            ["Tom is planning a surprise 40th birthday party for Maya on December 19"],
            ("create", None),
        ),
        (
            "Noor's flight home was delayed to 11pm",
            ["Noor's yoga class starts at 7pm on Thursdays", "Noor lives in Lisbon"],
            ("create", None),
        ),
        # the same thing named: its date moved
        (
            "The book club meeting was postponed to 14 March",
            ["Book club meets on 7 March at Ines's flat", "Reads mostly crime novels"],
            ("supersede", 0),
        ),
        # only a time named ("the deadline"): the item that holds a date of its kind
        (
            "The deadline was pushed back to 9 May",
            ["Thesis draft has to be handed in by 25 April"],
            ("supersede", 0),
        ),
    ],
)
def test_a_date_moved_replaces_only_the_date_of_the_thing_it_names(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # near for the shared name alone (0.48): another fact of the same person
        (
            "Tom is off the crutches and walking the dog again.",
            ["Send Tom a video sometime.", "Tom lives in Leeds"],
            ("create", None),
        ),
        (
            "Noor is baking bread again now that her oven is fixed.",
            ["Noor's sister Ines is visiting in May", "Noor has a cat called Miso"],
            ("create", None),
        ),
        # the same named slot, changed: as near as a change is
        (
            "Tom now works at the Bradford office",
            ["Tom works at the Leeds office", "Tom has a dog called Scout"],
            ("supersede", 0),
        ),
        # what is gone is the one named: the name is the link
        (
            "Rufus was put to sleep in March",
            ["Has a 14-year-old collie called Rufus", "Walks at Hillside Park"],
            ("supersede", 0),
        ),
    ],
)
def test_a_shared_name_alone_ties_no_change_to_an_item(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


@pytest.mark.parametrize(
    ("candidate", "existing", "expected"),
    [
        # the one item of the same person, near for the name alone: no other to be nearer than
        (
            "Jonas is off the crutches and cycling to work again.",
            ["Jonas wants a photo of the new garden"],
            ("create", None),
        ),
        (
            "Mira and Leo changed their minds on the floor - going with oak instead of tiles.",
            ["Mira and Leo have just bought a flat in Leeds and are redoing the bathroom."],
            ("create", None),
        ),
        # a thing handed back moves nothing ("send it back"); being back somewhere does
        (
            "Ada will send the signed lease back to the agent by 30 June",
            ["Ada is seeing her dentist next Monday (3 June)", "Ada lives in Hove"],
            ("create", None),
        ),
        (
            "Ada is back in Hove after a year in Lisbon",
            ["Ada lives in Lisbon", "Ada is seeing her dentist next Monday"],
            ("supersede", 0),
        ),
    ],
)
def test_a_cue_ties_to_an_item_only_with_evidence(
    embedder: Embedder, candidate: str, existing: list[str], expected: tuple[str, int | None]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == expected, d.reason


def test_a_time_said_from_is_no_old_value() -> None:
    assert not OLD_VALUE.search("Gluten free from now on, which is devastating")
    assert not OLD_VALUE.search("Works four days a week from next month")
    assert OLD_VALUE.search("Moved from Leeds to York")
    assert change_cues("Sent the form back to them on Friday") == frozenset()
    # "for now" holds until something changes; "just now" was a moment ago
    assert change_cues("Will do Saturdays herself for now") == frozenset()
    assert change_cues("Rang the vet just now") == frozenset()
    assert "now" in change_cues("Works from the Leeds office now")
    assert "back" in change_cues("Is back to running 10k a week")


@pytest.mark.parametrize(
    ("stored", "put_right", "speaker"),
    [
        (
            "Kemi and others are doing Ghana in July this year (2025), finally visiting their "
            "grandparents in Kumasi",
            "Kemi and others are doing Ghana in August, not July, this year (2025), finally "
            "visiting their grandparents in Kumasi",
            "Kemi",
        ),
        (
            "Tariq and others are doing Morocco in March this year (2025), finally seeing their "
            "cousins in Fez",
            "Tariq and others are doing Morocco in April, not March, this year (2025), finally "
            "seeing their cousins in Fez",
            "Tariq",
        ),
    ],
)
def test_the_learned_chooser_never_undoes_a_correction(
    embedder: Embedder, stored: str, put_right: str, speaker: str
) -> None:
    """The rules read "in August, not July" as putting the stored month right; the learned
    chooser had merged it instead, which keeps the stored words: July stayed current."""
    d = judge(embedder, put_right, [stored], said_on="2025-01-01", said_by=speaker)
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_an_end_the_store_already_holds_is_said_again(embedder: Embedder) -> None:
    """The stored item already says the thing ended ('... and haven't spoken since'): saying it
    ended again ('isn't speaking to her any more') changes nothing, and a merge keeps both."""
    stored = "Rhea and her cousin Dev argued at the wedding and haven't spoken since"
    d = judge(
        embedder,
        "Rhea isn't speaking to her cousin Dev any more after the wedding row",
        [stored, "Rhea's cousin Dev lives in Pune"],
    )
    assert (d.action, d.target) == ("merge", 0), d.reason
    # an end of something the store holds as going on still replaces it
    d = judge(
        embedder, "Rhea no longer talks to her cousin Dev", ["Rhea talks to her cousin Dev daily"]
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_trip_back_to_a_named_place_is_no_change(embedder: Embedder) -> None:
    """'Flying back to Lagos for Easter' is a visit: the place is still where it was. A move back
    is a change, and so is going back to a habit."""
    assert change_cues("Tomi is flying back to Lagos for Easter") == frozenset()
    assert change_cues("Hopes to go back to Kyoto in the autumn") == frozenset()
    assert "back" in change_cues("Tomi moved back to Lagos in March")
    assert "back" in change_cues("Going back to swimming after the shoulder surgery")
    d = judge(
        embedder,
        "Wants to go back to Lisbon next spring",
        ["Wants to visit Patagonia one day", "Flat is in Bristol"],
    )
    assert d.action == "create", d.reason  # the cue had replaced the other wish


def test_an_item_about_he_or_she_may_be_about_the_one_named(embedder: Embedder) -> None:
    """Extraction leaves a pronoun it cannot place ("He's on donepezil 5mg"): its subject is
    unknown, not the user, so "Dad is on 10mg donepezil now" changes its dose (it had been
    saved beside it, the old dose current; a new-user probe)."""
    existing = ["She's on sertraline 50mg in the morning.", "Her dentist is Dr Okoye"]
    d = judge(embedder, "Mum is on 100mg sertraline now.", existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_the_chooser_never_replaces_an_unrelated_item(embedder: Embedder) -> None:
    """A new-user probe: "Gluten free from now on" replaced the viva's date (cos 0.15), the
    learned chooser overriding the rules' create."""
    d = judge(
        embedder,
        "Dairy free from now on, which as a cheese lover is tragic",
        ["It's now 4 May, not 20 April, the examiner can't do April", "Lives in Exeter"],
    )
    assert d.action == "create", d.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        (
            "Ivo can go up to £900 a month for a flat with a garden.",
            "Ivo's flat budget is £800 a month.",
        ),
        (
            "Bea's hours go down to 20 a week from March.",
            "Bea works 30 hours a week at the library.",
        ),
    ],
)
def test_a_number_said_to_go_up_or_down_replaces_the_old(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    """Found by a new-user probe: "can go up to 2,400 euros a month for rent" stayed beside
    "budget for rent is 2,000 euros a month max" ("went up" and "goes up" were read, not "go
    up")."""
    got = judge(embedder, candidate, [stored])
    assert (got.action, got.target) == ("supersede", 0), got.reason


def test_a_value_named_only_in_a_stored_rules_condition_is_not_stored(
    embedder: Embedder,
) -> None:
    """'Summaries in French even when I write in Dutch' holds French; Dutch is only when the rule
    applies. 'Summaries in Dutch from now on' names a new value, not one the store holds."""
    assert "dutch" in analyse("Summaries in French even when I write in Dutch").conditional
    d = judge(
        embedder,
        "Wants summaries in Dutch from now on",
        ["Summaries in French even when I write in Dutch", "Works at a bank in Ghent"],
        category="preference",
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_plan_said_to_be_off_is_called_off(embedder: Embedder) -> None:
    """'The Lisbon weekend is off' cancels what was booked for it; a person off work or off a
    food cancels nothing."""
    assert "cancelled" in change_cues(
        "The Lisbon weekend in May is off; the dog sitter fell through"
    )
    assert change_cues("Ava is off dairy for now") == frozenset()
    assert change_cues("Ava is off sick today") == frozenset()
    d = judge(
        embedder,
        "The Lisbon weekend in May is off; the dog sitter fell through",
        ["Booked a hotel in Lisbon for a weekend in May", "Has a dog called Bolt"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_moved_off_names_the_value_left(embedder: Embedder) -> None:
    # "moved off early shifts onto lates": early shifts were the old value
    existing = [
        "Works early shifts at the bakery, 4am to noon",
        "The bakery is on Leith Walk",
        "Gets the night bus home on Fridays",
    ]
    d = judge(embedder, "Seems to have moved off early shifts onto lates", existing)
    assert (d.action, d.target) == ("supersede", 0), d


@pytest.mark.parametrize(
    "text",
    ["Taught English in Busan back in 2016", "Played bass in a ska band back in the day"],
)
def test_back_in_a_year_is_the_past_not_a_return(text: str) -> None:
    assert "back" not in analyse(text).cues
    # a return still is one
    assert "back" in analyse("Back in Busan after three years in Seoul").cues


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        # the end told again, with how long it has held
        (
            "Folake finally quit vaping, hasn't touched one since January",
            ["Folake stopped vaping in January", "Folake's brother still vapes", "Folake swims"],
        ),
    ],
)
def test_a_step_told_again_is_the_stored_step(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("merge", 0), d


def test_another_step_of_the_same_kind_is_no_restatement(embedder: Embedder) -> None:
    # promoted again, to another grade: a change, not the stored promotion told again
    d = judge(embedder, "Got promoted to principal engineer", ["Was promoted to staff engineer"])
    assert d.action != "merge", d


def test_an_instruction_to_stop_ends_the_stored_rule(embedder: Embedder) -> None:
    existing = [
        "Lives in Melbourne",
        "Sign off emails with 'Cheers, Dana'",
        "Add a short summary at the top of long answers",
    ]
    d = judge(embedder, "Stop adding summaries at the top, I never read them", existing)
    assert (d.action, d.target) == ("supersede", 2), d
    # a stop that is a thing, not an instruction, ends nothing
    assert "stopped" not in analyse("Bus stop is right outside the office").cues


def test_being_off_a_medicine_ends_taking_it(embedder: Embedder) -> None:
    existing = [
        "Iron levels were low in the spring",
        "Takes omeprazole 20 mg before breakfast",
        "Walks to work most days",
    ]
    d = judge(embedder, "Reflux has settled, so I'm off the omeprazole now", existing)
    assert (d.action, d.target) == ("supersede", 1), d
    assert "stopped" not in analyse("She's off the hook for the school run").cues


@pytest.mark.parametrize(
    "text",
    ["When reviewing, only comment on the changed files", "Keeps the replaced parts in a box"],
)
def test_a_participle_naming_a_thing_is_no_switch(text: str) -> None:
    assert "switched" not in analyse(text).cues
    assert "switched" in analyse("Changed dentists in April").cues


def test_a_new_rule_beside_others_that_says_changed_is_new(embedder: Embedder) -> None:
    existing = [
        "Keep code reviews short",
        "Explain the reason for a failing test before the fix",
        "Prefers Go examples",
    ]
    d = judge(embedder, "When reviewing, only comment on the changed files", existing)
    assert d.action == "create", d
