"""What somebody else likes or cannot bear, told of them by name or pronoun ("my sister Ruth is
coming over on the 12th. she hates mushrooms"), is kept as their preference: it had been read
as plain talk and lost to the turn's other statement (found by a new-user probe). And a note of
a new pet's details with its name given ("cocker spaniel called Fig, 10 weeks old") stays
with the statement it details. The chats here are our own words."""

from __future__ import annotations

import pytest

from memory_pipelines.core.sentence_kinds import sentence_kind
from tests.extract_helpers import window_items


@pytest.mark.parametrize(
    "sentence",
    ["she hates mushrooms", "oh and Ruth loves anything with lemon", "He can't stand coriander."],
)
def test_another_persons_liking_is_a_preference(sentence: str) -> None:
    assert sentence_kind(sentence, "user") == "stable_preference"


@pytest.mark.parametrize(
    "sentence",
    ["Everyone loves a long weekend.", "It hates the cold, this old van.", "Does she like sushi?"],
)
def test_what_everybody_or_a_thing_likes_is_no_ones_preference(sentence: str) -> None:
    assert sentence_kind(sentence, "user") != "stable_preference"


def test_a_liking_told_after_the_person_is_kept_as_theirs() -> None:
    kept = window_items(
        ("Tom", "user", "my sister Ruth is coming over on the 12th"),
        ("Assistant", "assistant", "Noted. Want some dinner ideas?"),
        ("Tom", "user", "sure. oh and she hates mushrooms"),
    )
    assert ("preference", "Tom's sister Ruth hates mushrooms") in kept


def test_a_pets_details_with_its_name_stay_with_the_news() -> None:
    kept = window_items(
        ("Ari", "user", "we've got a new puppy. cocker spaniel called Fig, 10 weeks old")
    )
    assert len(kept) == 1 and "Fig" in kept[0][1] and "puppy" in kept[0][1], kept
