"""An "it" or "them" a sentence takes as its object stands for what the turn said just before:
"Guitar's mostly my thing. Playing it helps me get my emotions out." was kept as "Playing it
helps Caroline get her emotions out", a memory of nothing (about one LoCoMo item in five kept
such a pronoun). The chats here are our own words."""

from __future__ import annotations

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.antecedents import points_back
from memory_pipelines.core.extract_parts import durable_parts


def _kept(text: str) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Agent")]


@pytest.mark.parametrize(
    "sentence",
    [
        "Playing it helps me unwind after work.",
        "I haven't tried them yet.",
        "I also use it to plan the week.",
        "Yeah, I sold it to a neighbour last spring.",
        "I couldn't have done it without them.",
        "I find it calming.",
        "my GP wants to lower it next month",  # the speaker's own one does it
        "I never leave the house without it.",  # after a preposition, whatever comes before
    ],
)
def test_an_object_it_with_nothing_before_it_points_back(sentence: str) -> None:
    assert points_back(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I bought a kayak and love it.",  # the clause names its own thing
        "I find it hard to wake up early.",  # the "it" of a clause after it
        "I love it when the garden is full of bees.",
        "We made it to the semi-final!",  # idioms
        "I'm sure we'll make it.",
        "I get it.",
        "I'm on it.",
        "Baking bread is my thing - it relaxes me.",  # named in its own sentence
        "I have a cat and I love playing with it.",
        "I'm mad about salsa and it keeps me fit.",  # the subject of a clause joined on
    ],
)
def test_an_it_the_sentence_names_or_an_idiom_points_nowhere(sentence: str) -> None:
    assert not points_back(sentence)


def test_the_sentence_is_kept_with_what_it_points_to() -> None:
    starter = "I got a sourdough starter from my aunt. I feed it every morning before work."
    assert _kept(starter) == [
        "I got a sourdough starter from my aunt; I feed it every morning before work."
    ]


def test_a_health_fact_keeps_the_change_said_of_it() -> None:
    kept = _kept(
        "I've been on lithium 400mg since March. my psychiatrist wants to drop it to 300mg"
    )
    assert len(kept) == 1, kept
    assert "lithium 400mg" in kept[0] and "drop it to 300mg" in kept[0]
    # a danger of the thing just named, said with "it", is the same fact
    kept = _kept("I always carry an inhaler. I never go running without it.")
    assert kept == ["I always carry an inhaler; I never go running without it."], kept


def test_a_promise_is_never_merged_into_a_statement_of_someone_else(memory: Memory) -> None:
    """Once "it" was joined to what it stands for, the statement "the bank still hasn't sent
    the new card; Noor needs to chase them" took the assistant's promise to remind her about
    the card into itself, and the reminder (whom, when) was lost."""
    told = memory.save(
        {"category": "fact", "confidence": 6, "context": "The bank still hasn't sent Noor's new "
         "debit card; Noor needs to chase them but always forgets until they're closed"}
    ).id  # fmt: skip
    promise = memory.save_with_dedup(
        {"category": "commitment", "confidence": 7, "owed_to": "Noor",
         "context": "Agent will remind Noor on Monday at 9 to chase the bank about her new "
                    "debit card"}
    )  # fmt: skip
    assert promise.saved and promise.merged_into is None and promise.superseded is None
    assert promise.id not in (None, told)
    assert "promise of Agent's" in (promise.reason or ""), promise.reason
    # the owner's own promise may still be the statement said again
    plan = memory.save(
        {"category": "fact", "confidence": 6,
         "context": "Noor agreed to help Omar paint his flat on Saturday"}
    ).id  # fmt: skip
    again = memory.save_with_dedup(
        {"category": "commitment", "confidence": 7,
         "context": "Noor will help Omar paint his flat on Saturday"}
    )  # fmt: skip
    assert again.merged_into == plan, again


def test_a_bare_time_answering_a_question_is_nothing_it_stands_for() -> None:
    # "Since I was 17 or so." is kept with the question it answers; "it" is in the question
    kept = _kept("Since I was 12 or so. I find it really relaxing.")
    assert "I find it really relaxing." in kept, kept


def test_he_or_she_next_is_the_one_the_speaker_knows_by_their_role() -> None:
    from memory_pipelines.core.referents import who_is_meant

    before = ["My landlord wants the signed tenancy form back. I said I'd post it by Friday."]
    assert who_is_meant("his name's Mr Adeyemi btw", [*before, "yes please."]) == (
        "My landlord's name's Mr Adeyemi btw"
    )
    assert who_is_meant("She wants the budget by Monday.", ["My new manager called."]) == (
        "My manager wants the budget by Monday."
    )
    # two roles, or anybody else beside the role: not clear who is meant
    for said in ("My manager and my mentor called.", "My landlord has a daughter.",
                 "My landlord came round with Priya."):  # fmt: skip
        assert who_is_meant("She is lovely.", [said]) == "She is lovely.", said


def test_a_promise_to_him_is_owed_to_the_one_known_by_their_role() -> None:
    from memory_pipelines.core.referents import whom_it_means

    said = ["My landlord wants the signed tenancy form back by Friday.", "I promised him"]
    assert whom_it_means("him", said) == "landlord"  # "Friday" is no person
    assert whom_it_means("her", ["My manager and my mentor both called.", "I told her"]) is None


def test_he_or_she_of_the_one_the_turn_just_named_is_about_somebody() -> None:
    """ "my sister Aoife just moved to Galway. she's teaching maths at a secondary school":
    the second sentence was dropped as about nobody, so the memory never learned her job."""
    said_as = {"Aoife": "she", "Galway": "they", "Tomasz": "he"}.get

    def kept(text: str) -> list[str]:
        return [s for s, _ in durable_parts(text, "user", [], "Agent", pronoun_of=said_as)]

    aoife = kept("my sister Aoife just moved to Galway. she's teaching maths at a secondary school")
    assert any(s.startswith("She's teaching maths") for s in aoife), aoife
    # a month is nobody: "He" is still the one named person
    tomasz = kept("My manager, Tomasz, retires in March. He has run the lab for 25 years")
    assert any("run the lab" in s for s in tomasz), tomasz
    # nobody known to be meant: left out as before
    assert kept("The play was long. She was brilliant in the second act though.") == []


def test_a_dose_changed_names_the_medicine_said_before() -> None:
    """A new user's probe: "I've been on sertraline 50mg for about a year now" / (assistant) /
    "my doc wants to up it to 100mg from next month" kept the change as "... wants to up it to
    100mg": of nothing."""
    from memory_pipelines.core.antecedents import medicine_named

    before = ["I've been taking lisinopril 10mg since the spring", "ok"]
    assert medicine_named("my GP wants to double it from Monday", before) == (
        "my GP wants to double lisinopril from Monday"
    )
    # two medicines named, or none: not clear which
    two = ["I take metformin and atorvastatin every morning"]
    assert medicine_named("my GP says to pause it before the scan", two) == (
        "my GP says to pause it before the scan"
    )
    assert medicine_named("I love it", ["We got a new sofa"]) == "I love it"


def test_a_question_asked_of_it_names_the_medicine_just_named() -> None:
    """A new user's probe: "doc bumped my sertraline from 50 to 100mg" / "... Did they say
    when to take it?" / "mornings w food" kept the answer with a question of nothing."""
    from memory_pipelines.core.antecedents import medicine_asked_of

    before = ["my cardiologist started me on bisoprolol last week"]
    assert medicine_asked_of("Should you take it at night?", before) == (
        "Should you take bisoprolol at night?"
    )
    # two medicines, two "it"s, or no medicine: left as asked
    assert medicine_asked_of("Is it working?", ["I take metformin and atorvastatin"]) == (
        "Is it working?"
    )
    assert medicine_asked_of("Is it worth it?", before) == "Is it worth it?"
    assert medicine_asked_of("Did you like it?", ["We saw a film"]) == "Did you like it?"


def test_a_pets_name_beside_its_kind_is_who_she_is() -> None:
    """A pet's name is in no table of people's names, and its guessed pronoun may be the other
    one: "Miso" was "he", so "she's on amlodipine" stayed a memory of nobody."""
    from memory_pipelines.core.referents import who_is_meant

    guessed = {"Tofu": "he"}.get
    before = ["is it normal for a rabbit to sleep this much? Tofu's been in his hutch all day"]
    assert who_is_meant("she's on metacam twice a day", before, guessed) == (
        "Tofu is on metacam twice a day"
    )
    # no animal said beside the name: the other gender is somebody else
    people = ["Tofu's been at the office all day"]
    assert who_is_meant("she's on metacam", people, guessed) == "she's on metacam"


def test_a_dose_said_alone_names_the_medicine_just_named() -> None:
    """ "could sertraline mess with sleep? I take 50mg every morning" kept the dose as
    "takes 50mg every morning", of no drug, and so did its correction to 100mg (a chat set
    written apart from the code)."""
    from memory_pipelines.core.antecedents import dose_of

    before = ["does amlodipine make your ankles swell?"]
    assert dose_of("I'm on 5mg at night", before) == "I'm on 5mg of amlodipine at night"
    # the new dose of a correction, not the old one it names
    assert dose_of("I take 10mg, not 5mg, at night", before) == (
        "I take 10mg of amlodipine, not 5mg, at night"
    )
    # its medicine said with it, two said before, or none: left as said
    assert dose_of("I take 5mg of amlodipine", before) == "I take 5mg of amlodipine"
    two = ["I take metformin and atorvastatin"]
    assert dose_of("the dose is 500mg", two) == "the dose is 500mg"
    assert dose_of("the bag weighs 500g", ["we went shopping"]) == "the bag weighs 500g"


@pytest.mark.parametrize(
    "sentence",
    ["been there since march", "We lived there until 2019.", "Yeah, I worked there for years."],
)
def test_a_bare_there_after_a_verb_is_a_place_said_before(sentence: str) -> None:
    assert points_back(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "There's a farmers market on Saturdays.",  # the "there" of being
        "theres four new ones",
        "Hi there, quick question about my order.",
        "Best hummus out there.",
        "We moved to Leeds in May and love it there.",  # the clause names its place
    ],
)
def test_a_there_of_being_or_with_its_place_points_nowhere(sentence: str) -> None:
    assert not points_back(sentence)


def test_a_place_said_as_there_is_kept_with_the_place() -> None:
    kept = _kept("I volunteer at the Larchfield food bank on Fridays. Been going there since 2021.")
    assert kept == [
        "I volunteer at the Larchfield food bank on Fridays; I've been going there since 2021."
    ]


def test_a_dose_changed_in_a_later_turn_is_kept_as_a_health_fact() -> None:
    """A new user's probe: "I'm on metformin for type 2, 500mg twice a day" / (assistant) /
    "doc just doubled it actually": the change named no medicine when the turn's sentences were
    chosen, so it was dropped as about nobody. The speaker's own earlier turns name it; another
    speaker's medicine is not theirs."""
    from tests.extract_helpers import window_items

    def kept(*turns: tuple[str, str, str]) -> list[str]:
        return [text for _, text in window_items(*turns)]

    raj = kept(
        ("Raj", "user", "I'm on metformin for type 2, 500mg twice a day"),
        ("Assistant", "assistant", "Thanks for telling me."),
        ("Raj", "user", "doc just doubled it actually"),
    )
    assert any("doubled metformin" in s for s in raj), raj
    others = kept(
        ("Ana", "user", "my dad's on warfarin since the op"),
        ("Ben", "user", "my GP doubled it last week"),
    )
    assert not any("doubled warfarin" in s for s in others), others
