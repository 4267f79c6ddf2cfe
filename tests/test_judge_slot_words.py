"""A slot read from how an item is written: a label ("Bank: Barclays"), and a word that names
the slot's one value ("main bank", "everyday laptop") beside the slot without it."""

from __future__ import annotations

from memory_pipelines.core.judge_claims import copular_slot
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_a_label_is_read_as_its_slot() -> None:
    assert copular_slot("Dentist: Dr Amari on Leith Walk") == (
        frozenset({"dentist"}),
        "Dr Amari on Leith Walk",
    )
    # a figure or a sentence before the colon is no label
    assert copular_slot("2 things: milk and bread") is None
    assert copular_slot("Told her landlord about the leak last week: no reply yet") is None


def test_the_slot_with_its_default_word_takes_a_new_name(embedder: Embedder) -> None:
    stored = ["Laptop: ThinkPad X1", "Tablet: iPad Air", "Partner uses a Dell XPS"]
    new = judge(embedder, "User's everyday laptop is a MacBook Air", stored)
    assert (new.action, new.target) == ("supersede", 0), new.reason
    bank = judge(embedder, "Main bank is Monzo", ["Bank: Barclays", "Savings with Nationwide"])
    assert (bank.action, bank.target) == ("supersede", 0), bank.reason


def test_another_slot_or_a_person_keeps_the_label_apart(embedder: Embedder) -> None:
    # a work laptop is another laptop, not the everyday one
    work = judge(embedder, "User's work laptop is a MacBook Air", ["Laptop: ThinkPad X1"])
    assert work.action == "create", work.reason
    # a person's slot holds many values: a second sister is no new value of the first
    sister = judge(embedder, "User's sister is Ana", ["Sister: Mia, a nurse in Cork"])
    assert sister.action != "supersede", sister.reason
