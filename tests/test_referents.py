"""An opening she or he is the relative the speaker just named, when it is clear which
(core.referents.py)."""

import pytest

from memory_pipelines.core.referents import who_is_meant


def _gender(name: str) -> str:
    return {"Anna": "she", "Sam": "he"}.get(name, "they")


@pytest.mark.parametrize(
    ("sentence", "before", "meant"),
    [
        ("She teaches English.", ["We spent a week in Kyoto.", "My sister lives there."],
         "My sister teaches English."),
        ("He is seven.", ["My son Leo is in year two."], "My son Leo is seven."),
        ("She's a nurse.", ["My mum is retired.", "Our dog is old."], "My mum's a nurse."),
        # the nearest sentence naming a relative decides
        ("He is kind.", ["My brother cooks.", "My dad came too."], "My dad is kind."),
        # a man named beside a sister: "she" is still the sister
        ("She loved it.", ["My sister met Sam there."], "My sister loved it."),
        # a possessive: the relative's
        ("His name is Pedro.", ["My fiancé eats everything."], "My fiancé's name is Pedro."),
        ("Her flight lands at 6.", ["My sister is visiting."], "My sister's flight lands at 6."),
        # a parent called by the word, as a name (the recall probe: "Dad told me he's retiring
        # ..." - "He wants to drive Route 66" was a memory of nobody)
        ("He wants to drive Route 66.", ["Dad told me he's retiring in March.", "Finally!"],
         "My Dad wants to drive Route 66."),
        ("She's flying in.", ["Yesterday Mum called."], "My Mum's flying in."),
    ],
)  # fmt: skip
def test_the_relative_the_speaker_named(sentence: str, before: list[str], meant: str) -> None:
    assert who_is_meant(sentence, before, _gender) == meant


@pytest.mark.parametrize(
    ("sentence", "before"),
    [
        ("She is seven.", ["My son Leo loves it."]),  # no relative of that gender
        ("She is great.", ["My sister and my mom came."]),  # two of them
        ("She is great.", ["My sister met Anna yesterday."]),  # another woman named
        ("They are great.", ["My sister came."]),  # only she or he
        ("My sister is great.", ["My mum came."]),  # no pronoun to put
        ("She is great.", []),
        # a relative's someone: she may be either
        ("She said Mia is doing well.", ["My sister came.", "My daughter's teacher called."]),
    ],
)
def test_left_as_said_when_it_is_not_clear(sentence: str, before: list[str]) -> None:
    assert who_is_meant(sentence, before, _gender) == sentence
    # without a way to tell a person's name from a place's, any name leaves it as said
    assert who_is_meant("She left.", ["My sister moved to Kyoto."]) == "She left."


@pytest.mark.parametrize(
    ("answer", "question", "meant"),
    [
        ("It's 5 Birch Road now.", "Is the delivery address still 12 Oak Lane?",
         "The delivery address is 5 Birch Road now."),
        ("It's a beagle.", "Is your dog a labrador?", "My dog is a beagle."),
        ("It was on Friday.", "Was the party on Thursday?", "The party was on Friday."),
        # no one thing asked of: as said
        ("It's great.", "How was the trip?", "It's great."),
        ("It's raining.", "Is it sunny there?", "It's raining."),
        # a word about the thing, no value of the kind asked
        ("It's shut on Mondays.", "Is the cafe open on Sundays?", "It's shut on Mondays."),
        ("It's been a year.", "Is your sister still in Kyoto?", "It's been a year."),
        ("Yes, we did.", "Is your dog a labrador?", "Yes, we did."),
    ],
)  # fmt: skip
def test_it_is_the_thing_the_question_asked_about(answer: str, question: str, meant: str) -> None:
    from memory_pipelines.core.referents import what_it_is

    assert what_it_is(answer, question) == meant


@pytest.mark.parametrize(
    ("sentence", "before", "meant"),
    [
        # a person named with their role, whose name may be anybody's
        (
            "she's a pharmacist in Leeds now",
            ["bumped into my old flatmate Robin at the gym!"],
            "Robin is a pharmacist in Leeds now",
        ),
        # a pet by its kind, whatever its name
        (
            "she's been off her food since Monday",
            ["any tips for my cat Biscuit?"],
            "Biscuit has been off her food since Monday",
        ),
        ("He hates the hoover.", ["My puppy Otto is five months old."], "Otto hates the hoover."),
    ],
)
def test_the_one_person_or_pet_named_with_a_role(
    sentence: str, before: list[str], meant: str
) -> None:
    assert who_is_meant(sentence, before, _gender) == meant


@pytest.mark.parametrize(
    ("sentence", "before"),
    [
        # the name is of the other gender
        ("She's a vet.", ["my old roommate Sam came round"]),
        # two people named: not clear which
        ("She's a vet.", ["my old roommate Robin came round with Anna"]),
    ],
)
def test_a_named_role_left_as_said_when_it_does_not_fit(sentence: str, before: list[str]) -> None:
    assert who_is_meant(sentence, before, _gender) == sentence


def test_the_pronoun_after_an_opening_word_is_read_too() -> None:
    before = ["my nephew Tomi is staying over and he can't have gluten"]
    meant = who_is_meant(
        "oh wait, he's fine with gluten, it's dairy he can't have", before, _gender
    )
    assert meant == "oh wait, my nephew Tomi's fine with gluten, it's dairy he can't have"


@pytest.mark.parametrize(
    ("sentence", "before", "meant"),
    [
        # the one name the speaker said just before, whoever it is
        (
            "she's on thyroid tablets",
            ["Pickle's been sleeping in the sink all week"],
            "Pickle is on thyroid tablets",
        ),
        (
            "He starts at the bakery on Monday.",
            ["Sam got the job!"],
            "Sam starts at the bakery on Monday.",
        ),
    ],
)
def test_the_one_name_said_just_before(sentence: str, before: list[str], meant: str) -> None:
    assert who_is_meant(sentence, before, _gender) == meant


@pytest.mark.parametrize(
    ("sentence", "before"),
    [
        ("She's on thyroid tablets.", ["Sam's been sleeping in the sink"]),  # a man's name
        ("She's on thyroid tablets.", ["Pickle and Anna were at the vet"]),  # two names
    ],
)
def test_the_one_name_left_when_it_does_not_fit(sentence: str, before: list[str]) -> None:
    assert who_is_meant(sentence, before, _gender) == sentence


@pytest.mark.parametrize(
    ("sentence", "before", "meant"),
    [
        # an animal said by its kind, when the sentence names nobody (extraction_w)
        (
            "his name is Biscuit, he's 3",
            ["we took in an old rescue lurcher!!"],
            "The lurcher's name is Biscuit, he's 3",
        ),
        (
            "her name is Clementine",
            ["Wait till you see the kitten."],
            "The kitten's name is Clementine",
        ),
        (
            "She's scared of the hoover.",
            ["I got my rabbit from a shelter."],
            "My rabbit is scared of the hoover.",
        ),
    ],
)
def test_an_animal_named_by_its_kind(sentence: str, before: list[str], meant: str) -> None:
    assert who_is_meant(sentence, before, _gender) == meant


@pytest.mark.parametrize(
    ("sentence", "before"),
    [
        ("She's thrilled.", ["Dana got a puppy!"]),  # a person is named: she may be Dana
        ("She's thrilled.", ["My sister got a puppy!"]),  # or the relative
        ("He's lovely.", ["We have a cat and a beagle."]),  # two animals
    ],
)
def test_an_animal_left_when_a_person_or_another_animal_may_be_meant(
    sentence: str, before: list[str]
) -> None:
    meant = who_is_meant(sentence, before, _gender)
    assert "puppy" not in meant and "cat" not in meant and "beagle" not in meant
