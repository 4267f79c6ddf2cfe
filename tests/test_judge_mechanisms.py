"""Tests of the dedup judge's mechanisms added for the third case set: whom an item is about,
the slot a change names, clauses of condition, exceptions, stances turned round, value frames,
processes under way, and values written in other forms.

Every case is written for this file (none is taken from a case set). The model is the real
embedder (loaded once for the module); no database is involved.
"""

from __future__ import annotations

from functools import partial

import pytest

from memory_pipelines.core.judge_claims import claims
from memory_pipelines.core.judge_cues import change_cues
from memory_pipelines.core.judge_lexicon import content_stems
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.core.judge_stance import contrast_pair, contrast_turned, main_stance_turned
from memory_pipelines.core.judge_values import read_values, shared_values, value_conflicts
from memory_pipelines.core.judge_who import same_family, subject_conflict
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge as judge_with

judge = partial(judge_with, with_model=False)


# (candidate, existing, expected action, expected target); category "fact"
CASES: list[tuple[str, list[str], str, int | None]] = [
    # "not gatwick like Ines told marco": the airport is the rejected side, not who told whom,
    # so no item naming Ines or Marco is turned round.
    (
        "Flight to lisbon is 12 may from bristol airport, not gatwick like Ines told marco at"
        " first",
        [
            "Marco's coming to lisbon with Ines, they booked an apartment in Alfama",
            "Ines is Ines, training for the Lisbon half marathon on 14 may.",
            "Marco wants Ines to do a 5k time trial on 2 april to see where she is at.",
            "Ines's club coach is Marco, he's at Bristol Harriers.",
        ],
        "create",
        None,
    ),
    # "not super urgent but ...": the rejected side ends at "but"; what follows is no old value.
    (
        "Garden thing, not super urgent but Omar has got greenfly on the roses again, the nursery"
        " said no more than 2 sprays a week.",
        [
            "Omar promised Lena he would have the shed painted by 20 March",
            "Omar's hourly rate is £40",
            "Lena paid invoice 88 on the 10th and yes Omar did send the reminder like he said",
            "Omar will send it to them by friday",
            "Omar quoted £900 fixed",
        ],
        "create",
        None,
    ),
    # "instead of vinyl" names the old value; no stored item holds it, so none changed ...
    (
        "Priya and Omar changed their minds on the flooring - going with oak instead of vinyl.",
        [
            "Priya and Omar just bought a flat in Leeds and are redoing the hallway.",
            "Omar's bike needs a new chain",
            "Their builder is Kasia Nowak",
        ],
        "create",
        None,
    ),
    # ... and the item that holds it is replaced.
    (
        "Going with oak floors instead of the vinyl",
        ["Priya and Omar just bought a flat in Leeds", "Wants vinyl flooring in the hallway"],
        "supersede",
        1,
    ),
    # What is denied ("doesn't matter now") is the plot; the name is shared by two assertions
    # only ("Tom gave it up" / "put Tom on blood thinners"): no stance of the dose turned.
    (
        "The allotment plot doesn't matter now, Tom gave it up",
        [
            "The doctor put Tom on blood thinners",
            "Tom is hoping to get an allotment plot to grow vegetables",
            "Their vet is in Harrogate",
        ],
        "supersede",
        1,
    ),
    # A thing named without an owner is the user's: it clashes with a relative's item.
    (
        "Laptop is a ThinkPad X1",
        ["Sister works on a ThinkPad X1", "Uses Linux at work"],
        "create",
        None,
    ),
    # ... and the change of a slot finds the user's item, not the partner's.
    (
        "Changed phone number to 07700 900123 in April",
        ["Partner's phone number is 07700 900456", "Phone number is 07700 900789"],
        "supersede",
        1,
    ),
    # "switched X to Y": X names the slot that changed, even worded unlike the value.
    (
        "Switched mobile network to Skylink in March",
        ["Dad is with Skylink", "Mobile network is Tarn Telecom", "Broadband is fibre"],
        "supersede",
        1,
    ),
    # The old holder of a role left: the role passed to another person.
    (
        "Jonah runs the Tuesday quiz now that Petra has left",
        ["Petra runs the Tuesday quiz at the pub", "Pub quiz starts at 8pm"],
        "supersede",
        0,
    ),
    # A strong cue whose old value the store names with a narrower word.
    (
        "Has stopped eating sugar",
        ["Partner avoids sugar", "Has two biscuits with every tea", "Walks to work"],
        "supersede",
        1,
    ),
    # A clause of condition reports no change.
    (
        "The old booking system stays on PHP until it is replaced",
        ["The booking system will be replaced in 2027", "New services are written in Kotlin"],
        "create",
        None,
    ),
    # An exception leaves the rule standing, and a rule beside an exception is not it.
    (
        "Makes an exception for the Monday release and works late that evening",
        ["Never works after 6pm", "Releases happen on Mondays"],
        "create",
        None,
    ),
    (
        "Checks in a suitcase for long trips",
        ["Travels with hand luggage only on short trips", "Has a railcard"],
        "create",
        None,
    ),
    # A contrast turned round; a main clause's stance turned under a cue.
    (
        "Now wants the newsletter by post",
        ["Wants the newsletter by email, not by post", "Reads the newsletter on Sundays"],
        "supersede",
        0,
    ),
    (
        "Enjoys crowded gigs these days",
        ["Can't cope with crowded gigs; prefers small venues", "Goes to two gigs a month"],
        "supersede",
        0,
    ),
    # One value changed in the same frame, the candidate giving its reason.
    (
        "Has 5 stamps on the loyalty card after buying lunch today",
        ["Has 2 stamps on the café loyalty card", "Buys lunch at Nook most days"],
        "supersede",
        0,
    ),
    # A noun phrase opened by an -ing word is the subject; another room is another subject.
    (
        "The dining room faces east",
        ["Dining room is used as a study", "Garden faces east", "Sitting room faces west"],
        "create",
        None,
    ),
    # A process under way, then its new state.
    (
        "The visa for Canada is approved now",
        ["Applying for a Canada work visa; forms sent in May", "Flat lease ends in August"],
        "supersede",
        0,
    ),
    # A hedged guess confirms the one stated item it is about, at a cosine under 0.45 too.
    (
        "Might be into sailing",
        ["Crews on a yacht at the Hamble most weekends", "Partner plays squash"],
        "merge",
        0,
    ),
    # A group of relatives and its members are the same people.
    (
        "Parents are coming for Easter",
        ["Mum and Dad are visiting at Easter", "Easter lunch is at her sister's"],
        "merge",
        0,
    ),
    # The nearest item is someone else's; the claim restated is about the user.
    (
        "Pays £60 a month for the allotment",
        ["Allotment rent is £720 a year", "Partner's allotment is £50 a month"],
        "merge",
        0,
    ),
    # A one-word swap at a middling cosine is another object in the same frame.
    (
        "Goes to Pilates on Thursday evenings",
        ["Goes to yoga on Thursday evenings", "Gym is on Mill Lane"],
        "create",
        None,
    ),
    # The subject of a changed value named more narrowly on one side; "month" is no value.
    (
        "Water bill is £42 a month since the meter was fitted",
        ["Water costs £35 a month", "Gas is £60 a month"],
        "supersede",
        0,
    ),
    # Two items sharing only a stance word hold different objects.
    ("Allergic to bee stings", ["Allergic to ibuprofen", "Carries antihistamines"], "create", None),
    # A cue with the nearest item holding another value of the same slot: what changed.
    (
        "Favourite band these days is apparently Wet Leg",
        ["Favourite band is Blur", "Plays bass", "Goes to Glastonbury"],
        "supersede",
        0,
    ),
    (
        "Now walks the dog with a harness",
        ["Walks the dog with a collar and lead", "Dog is a whippet", "Works from home"],
        "supersede",
        0,
    ),
    # ... but without a cue, another object in the same frame is a second fact.
    (
        "Walks the dog with a harness",
        ["Walks the dog with a collar and lead", "Dog is a whippet", "Works from home"],
        "create",
        None,
    ),
    # A birth, dated, beside an age that puts it in the same year (said in March 2024): the
    # event is stored in another form, whatever its cue.
    (
        "Son Idris was born in October 2015",
        ["Idris turns nine next October", "Idris plays rugby", "Daughter Mali is twelve"],
        "merge",
        0,
    ),
    (
        "Dog Biscuit was born in the spring of 2019",
        ["Biscuit turned five this February", "Biscuit is a beagle"],
        "merge",
        0,
    ),
    # ... and in another year, a correction of it.
    (
        "Son Idris was born in October 2013",
        ["Idris turns nine next October", "Idris plays rugby", "Daughter Mali is twelve"],
        "supersede",
        0,
    ),
    # A single-valued slot: another person at the same place is another value.
    (
        "Accountant is Ms Rivera at Holt Partners",
        ["Accountant is Mr Banks at Holt Partners", "Pharmacy is Boots on the high street"],
        "supersede",
        0,
    ),
    # "User's housemate Priya": the user owns the subject, which is Priya, not the user.
    (
        "User's housemate Priya cycles to work every day",
        ["Cycles to work every day", "Priya is a nurse", "Lives in Leeds"],
        "create",
        None,
    ),
    (
        "User cycles to work every day",
        ["Cycles to work every day", "Priya is a nurse", "Lives in Leeds"],
        "merge",
        0,
    ),
    # An occasion of its own put first is an exception beside the rule, not the rule again.
    (
        "For the climbing club's newsletter, photos of the kids are fine",
        ["No photos of the kids online", "Kids are 6 and 9", "Member of a climbing club"],
        "create",
        None,
    ),
    (
        "Photos of the kids online are not OK",
        ["No photos of the kids online", "Kids are 6 and 9", "Member of a climbing club"],
        "merge",
        0,
    ),
    # A list whose second member repeats the preposition still grew.
    (
        "Sends invoices to Acme and to Birchwood",
        ["Sends invoices to Acme", "Works from a studio in Hove"],
        "supersede",
        0,
    ),
    # An ordinal before its noun is a number of it, in digits or words; "the second floor" is
    # a position, not one more of something.
    (
        "Office is on the seventh floor",
        ["Office is on the 2nd floor", "Commutes by tram"],
        "supersede",
        0,
    ),
    (
        "Office is on the second floor",
        ["Office is on the 2nd floor", "Commutes by tram"],
        "merge",
        0,
    ),
]


# A preference said with a verb of choosing replaces the old choice; for an occasion of its
# own, or without choosing, it sits beside it.
@pytest.mark.parametrize(
    ("candidate", "action"),
    [
        ("Wants reminders on WhatsApp", "supersede"),
        ("For dentist appointments, wants reminders on WhatsApp", "create"),
        ("Gets reminders on WhatsApp", "create"),
    ],
)
def test_a_new_choice_replaces_the_old(embedder: Embedder, candidate: str, action: str) -> None:
    existing = ["Prefers reminders on Signal", "Likes short replies", "Uses a Pixel phone"]
    d = judge(embedder, candidate, existing, category="preference")
    assert d.action == action, d.reason
    assert d.target == (0 if action == "supersede" else None)


@pytest.mark.parametrize(("candidate", "existing", "action", "target"), CASES)
def test_mechanism_cases(
    embedder: Embedder, candidate: str, existing: list[str], action: str, target: int | None
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == (action, target), d.reason


def test_owners_and_families() -> None:
    # a bare thing against a relative, not against a name or the user
    assert subject_conflict(analyse("Bike is a Brompton"), analyse("Brother rides a Brompton"))
    assert not subject_conflict(analyse("Bike is a Brompton"), analyse("Rides a Brompton"))
    # a possessed word is no role; a name after a preposition is a value, not who it is
    assert subject_conflict(
        analyse("Changed surname to Ross"), analyse("Partner's surname is Ross")
    )
    assert subject_conflict(analyse("Switched bank to Monzo"), analyse("Mum is with Monzo"))
    assert not subject_conflict(analyse("Split up with Ravi"), analyse("Partner is Ravi"))
    # groups of relatives
    assert same_family({"parents"}, {"mother", "father"})
    assert not same_family({"brother"}, {"sister"})
    assert not subject_conflict(analyse("Parents live in Hull"), analyse("Mum lives in Hull"))
    assert subject_conflict(analyse("Brother lives in Hull"), analyse("Sister lives in Hull"))


def test_a_named_persons_relative_is_another_person(embedder: Embedder) -> None:
    """Both items name Oskar, but one is about his daughter: a merge would file her new job
    under his."""
    daughter = "Oskar's daughter has started a nursing degree in Leeds, and Oskar helped her move"
    oskar = "Oskar finished a nursing degree in Leeds in 2009"
    assert subject_conflict(analyse(daughter), analyse(oskar))
    assert subject_conflict(analyse(oskar), analyse(daughter))
    d = judge(embedder, daughter, [oskar, "Oskar plays five-a-side on Tuesdays"])
    assert d.action == "create", d.reason
    # ... unless the item about Oskar speaks of her too
    both = "Oskar's daughter Liv is studying nursing, as he did"
    assert not subject_conflict(analyse(both), analyse("Oskar is proud that Liv chose nursing"))


def test_a_named_relative_is_whom_the_item_is_about(embedder: Embedder) -> None:
    """'Marta's brother Tomek' names Marta only as whose brother he is: the item is about Tomek,
    and his news beside hers is another person's, however alike the two sentences."""
    tomek = "Marta's brother Tomek paid £900 for his road bike last spring"
    marta = "Marta paid £900 for her road bike"
    assert subject_conflict(analyse(marta), analyse(tomek))
    d = judge(embedder, marta, [tomek, "Marta cycles to work in Gdańsk"])
    assert d.action == "create", d.reason  # the merge had filed Marta's bike under Tomek's
    # the same brother named either way is one person
    assert not subject_conflict(analyse("Tomek rides every Sunday"), analyse(tomek))
    # a correction puts right what was said of whoever it was said ("not Tuesdays")
    said = analyse("Marta's son Kuba has swimming on Tuesdays")
    fixed = analyse("Marta's swimming run is on Wednesdays, not Tuesdays")
    assert not subject_conflict(fixed, said)


def test_a_label_of_aversion_holds_the_stance_of_what_follows_it(embedder: Embedder) -> None:
    """'Allergies: sesame and ibuprofen' says 'allergic to sesame and ibuprofen'; read as a
    label beside two plain things, it had turned the stored allergy round and replaced it."""
    label = claims("Allergies: sesame and ibuprofen")
    assert label.denies and label.clauses[0].negative
    # the stance is the label's clause's only: what the note adds after it is not denied
    assert not claims("Dislikes: olives; orders pizza weekly").clauses[1].negative
    stored = "Allergic to ibuprofen and to sesame; keeps antihistamines at work"
    d = judge(embedder, "Allergies: sesame and ibuprofen", [stored, "Has mild eczema"])
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_subjects_and_names_are_read_from_the_sentence() -> None:
    # an -ing word, a noun and a verb of the third person open a noun phrase
    assert analyse("Living room faces south").subject_stems == {"liv", "room"}
    # an unknown -s verb after a noun, before a word that is no verb
    assert analyse("Garden faces south").subject_stems == {"garden"}
    assert analyse("Kitchen tiles are white").subject_stems == content_stems(["kitchen", "tiles"])
    # a capitalised opener the case writes inside a sentence is a name, before a verb only
    named = analyse("Grafana alerts go to the on-call phone", case_names=frozenset({"grafana"}))
    assert named.subject == {"grafana"}
    verbless = analyse("Grafana power user, on the pro plan", case_names=frozenset({"grafana"}))
    assert verbless.subject == {"user"}


def test_changes_and_conditions() -> None:
    assert "status" in change_cues("The loan is paid off")
    assert not change_cues("Keeps the old laptop until it is paid off")
    assert change_cues("Stepped down as treasurer") == {"left"}
    slots = analyse("Switched energy tariff to a fixed deal").slot_words
    assert content_stems(["energy", "tariff"]) <= slots
    assert analyse("Applying for a mortgage").ongoing
    assert analyse("Daughter is learning to swim").ongoing
    assert not analyse("The view is amazing").ongoing


def test_stances_turned() -> None:
    assert contrast_pair("Wants meetings in the morning, not after lunch") is not None
    held = contrast_pair("Wants meetings in the morning, not after lunch")
    assert contrast_turned(None, claims("Prefers meetings after lunch now"), held,
                           claims("Wants meetings in the morning, not after lunch"))  # fmt: skip
    # the other side rejects the same thing: no reversal
    assert not contrast_turned(contrast_pair("Uses tabs rather than spaces"),
                               claims("Uses tabs rather than spaces"), None,
                               claims("No spaces for indentation; tabs only"))  # fmt: skip
    assert contrast_pair("Garden thing, not super urgent but Omar has got greenfly") == (
        frozenset({"garden", "thing"}),
        frozenset({"super", "urgent"}),
    )
    # who the two are about is no side of a contrast
    held = contrast_pair("Flies from bristol, not gatwick like Omar told Lena")
    lena = claims("Lena and Omar are a couple")
    assert contrast_turned(held, claims("unused"), None, lena)
    assert not contrast_turned(held, claims("unused"), None, lena, frozenset({"omar", "lena"}))
    assert main_stance_turned(claims("Loves early mornings now"),
                              claims("Can't stand early mornings"), frozenset())  # fmt: skip
    assert not main_stance_turned(claims("Loves early mornings"),
                                  claims("Loves long lunches"), frozenset())  # fmt: skip
    # the two share only what two assertions say (a name): what is denied is another thing
    gym = frozenset({"gym", "membership"})
    assert not main_stance_turned(
        claims("The gym membership isn't needed any more, Priya cancelled it"),
        claims("Started Priya on a course of iron tablets"),
        gym,
    )
    assert main_stance_turned(
        claims("Doesn't take iron tablets any more, Priya's levels are fine"),
        claims("Priya takes iron tablets daily"),
        frozenset({"priya"}),
    )


def vals(text: str, said_on: tuple[int, int] | None = None) -> dict[str, frozenset[str]]:
    return read_values(text, said_on)[0]


def test_dates_in_other_forms() -> None:
    assert vals("Due 2025-03-07")["date"] == {"7 mar"}
    assert vals("Due on 07/03/2025")["date"] == {"7 mar"}
    assert vals("Due on the seventh of March")["date"] == {"7 mar"}
    assert vals("Due on March the seventh")["date"] == {"7 mar"}
    assert vals("Clinic is open Tuesday to Thursday")["weekday"] == {"tue", "wed", "thu"}
    assert vals("Clinic is open Mon-Wed")["weekday"] == {"mon", "tue", "wed"}
    # relative to the telling: (year, month)
    assert vals("Started last October", (2024, 6))["year"] == {"2023"}
    assert vals("Started last April", (2024, 6))["year"] == {"2023", "2024"}
    assert vals("Graduates next May", (2024, 10))["year"] == {"2025"}
    assert vals("Moved here six years ago", (2024, 6))["year"] == {"2018"}
    assert vals("Started next month", (2024, 12)) == {"month": {"jan"}, "year": {"2025"}}
    assert "year" not in vals("Started last October")  # said when? unknown: not read


def test_amounts_and_times_in_other_forms() -> None:
    assert vals("Lands at 3.40pm")["clock"] == {"15:40"}
    assert vals("Dinner at eight in the evening")["clock"] == {"20:00"}
    assert vals("Wakes at six thirty am")["clock"] == {"6:30"}
    assert vals("Tea at half five")["clock"] == {"5:30", "17:30"}
    assert vals("Meet at seven on Fridays")["clock"] == {"7:00", "19:00"}
    assert "clock" not in vals("Back after seven weeks")
    assert vals("Paid three grand for the car")["money"] == {"3000"}
    assert vals("A third of the team is remote")["percent"] == {"33"}
    assert vals("Bought a dozen eggs")["n:egg"] == {"12"}
    assert vals("Bought half a dozen eggs")["n:egg"] == {"6"}
    assert vals("Away for a fortnight")["n:week"] == {"2"}
    assert (
        vals("Climbs twice a week")["every"] == vals("Climbs 2x a week")["every"] == {"2x 1 week"}
    )
    assert vals("Weighs 70 kilos")["n:kg"] == vals("Weighs 70 kg")["n:kg"]
    assert vals("Bins go out every other week")["every"] == vals("Bins go out fortnightly")["every"]
    # a rate said per month and per year is one amount; another amount still conflicts
    month, year = vals("Pays £50 a month for parking"), vals("Pays £600 a year for parking")
    assert value_conflicts(month, year) == []
    # A date and its weekday are one value: one change, not two.
    moved = value_conflicts(
        vals("Launch is on Friday 30 May"), vals("Launch is on Wednesday 4 June")
    )
    assert moved == ["date"]
    assert value_conflicts(month, vals("Pays £55 a month for parking")) == ["money"]


def test_an_ordinal_counts_its_noun_unless_it_is_a_frequency() -> None:
    assert vals("Lives on the fifth floor") == {"n:floor": frozenset({"5"})}
    assert vals("Lives on the 5th floor") == {"n:floor": frozenset({"5"})}
    assert "n:week" not in vals("On call every fourth week")
    assert vals("Rent is due on the 3rd") == {"day": frozenset({"3"})}


def test_a_bare_count_is_the_same_amount_as_a_number_with_a_unit() -> None:
    target = vals("Wants to put £1,800 aside for the holiday")
    assert shared_values(vals("Holiday fund target is 1.8k"), target) == 1
    assert shared_values(target, vals("Holiday fund target is 1.8k")) == 1
    assert shared_values(vals("Holiday fund target is 2.4k"), target) == 0
    assert shared_values(vals("Eats 2.2k a day"), vals("Calorie goal: 2,200 kcal")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Chose Postgres for the booking app because the team knows it",
        "Sent the signed lease back to Harlow Lettings",
        "Won the club's autumn chess cup",
    ],
)
def test_an_item_that_opens_with_a_common_verb_is_about_the_user(text: str) -> None:
    assert analyse(text).subject == {"user"}


def test_a_list_of_denials_that_grew_is_a_new_value(embedder: Embedder) -> None:
    """The stance is not the frame: "won't eat" and "dislikes" hold one list."""
    existing = ["Dislikes beetroot and celery", "Cooks on Sundays"]
    d = judge(embedder, "Won't eat beetroot, celery or fennel", existing, category="preference")
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_thing_owned_by_name_is_what_the_item_is_about() -> None:
    assert analyse("Owns a 12-year-old gelding called Monty").subject == {"user", "monty"}
    assert analyse("Has a cat called Tofu").subject >= {"user", "tofu"}


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        ("The choir has grown to forty singers", True),
        ("Fees have risen to £30 a term", True),
        ("Membership has fallen to twelve", True),
        ("The merino one shrank in the wash", False),
    ],
)
def test_a_number_that_moved_in_a_perfect_tense(text: str, moved: bool) -> None:
    assert ("number moved" in change_cues(text)) is moved


@pytest.mark.parametrize(
    ("text", "cued"),
    [
        ("New accountant is Mei Tan", True),
        ("New water bill is £38 a month", True),
        ("New 10k PB: 44:10 at the Leeds 10k", True),
        ("Got a new bike for commuting", True),
        # "new" naming which thing the item is about reports no change
        ("The new studio has north light", False),
        ("New neighbour Rafi also keeps bees", False),
    ],
)
def test_new_opening_an_item_says_which_thing_unless_it_gives_a_value(
    text: str, cued: bool
) -> None:
    assert ("new" in change_cues(text)) is cued


def test_a_colour_is_a_value(embedder: Embedder) -> None:
    """ "Bike is a green Brompton" beside "Rides a black Brompton" is no restatement: merged,
    the new colour was lost."""
    assert read_values("Bike is a green Brompton")[0]["colour"] == frozenset({"green"})
    assert value_conflicts(
        read_values("Bike is a green Brompton")[0], read_values("Rides a black Brompton")[0]
    )
    d = judge_with(embedder, "Bike is a green Brompton", ["Rides a black Brompton"])
    assert d.action != "merge", d.reason
    d = judge_with(embedder, "Rides a green Brompton", ["Bike is a green Brompton"])
    assert d.action == "merge", d.reason
