"""A fact a named person tells that names nobody it is of ("The label printer jams on glossy
stock") was stored as said, so among several people's records it read as anyone's and a search
for the person missed it. It is led by the speaker's name; a fact that names them, a promise
and what the assistant says are left as they were. The dedup judge reads such a fact without
the name before it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_pipelines.core.extract import WindowTurn, extract_window
from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.core.sentence_people import attributed
from memory_pipelines.models.embedder import Embedder

SAID = datetime(2026, 5, 11, tzinfo=UTC)


def test_a_text_that_names_nobody_is_led_by_the_speaker() -> None:
    assert attributed("The label printer jams on glossy stock.", "Priya") == (
        "Priya: The label printer jams on glossy stock."
    )
    # the body starts a sentence of its own
    assert attributed("the boiler is serviced in October.", "Priya") == (
        "Priya: The boiler is serviced in October."
    )
    # named already, as the subject or as an owner: left alone
    assert attributed("Priya's boiler is serviced in October.", "Priya") == (
        "Priya's boiler is serviced in October."
    )
    assert attributed("The office lets Priya work from home.", "Priya") == (
        "The office lets Priya work from home."
    )
    # a word that merely contains the name is no mention of it
    assert attributed("Annabel's printer jams.", "Anna") == "Anna: Annabel's printer jams."
    assert attributed("The printer jams.", "") == "The printer jams."
    # a text labelled already keeps its one label
    assert attributed("Note to self: renew the lease.", "Priya") == "Note to self: renew the lease."


def _extracted(*turns: WindowTurn) -> list[str]:
    return [c["context"] for c in extract_window(list(turns), pronoun_of=lambda _: "she")]


def test_a_fact_said_without_a_person_keeps_whose_it_is() -> None:
    facts = _extracted(
        WindowTurn(1, "user", "Priya", "The Ghent depot closes at 4pm on Fridays.", SAID),
        WindowTurn(2, "user", "Jonas", "Good to know.", SAID),
    )
    assert any(f == "Priya: The Ghent depot closes at 4pm on Fridays." for f in facts), facts


def test_a_first_person_fact_reads_as_before() -> None:
    facts = _extracted(
        WindowTurn(1, "user", "Priya", "I run the depot in Ghent since 2021.", SAID),
        WindowTurn(2, "user", "Jonas", "Nice!", SAID),
    )
    assert facts and all(f.startswith("Priya runs the depot") for f in facts), facts


def test_a_promise_and_the_assistants_words_are_not_attributed() -> None:
    promised = _extracted(
        WindowTurn(1, "user", "Priya", "I'll send Jonas the depot keys by Friday.", SAID),
        WindowTurn(2, "user", "Jonas", "Great, thanks.", SAID),
    )
    assert promised and not any(p.startswith("Priya:") for p in promised), promised
    told = _extracted(
        WindowTurn(1, "user", "Priya", "Which courier should we use?", SAID),
        WindowTurn(
            2, "assistant", "", "We're going with Parcelo because their depot is closest.", SAID
        ),
    )
    assert not any(":" in t.split()[0] for t in told), told


@pytest.mark.parametrize(
    ("candidate", "action"),
    [
        ("The Ghent depot closes at 5pm on Fridays now.", "supersede"),
        ("The Ghent depot shuts at 4pm every Friday.", "merge"),
        # the name read as the subject both share made this one the forklifts' fact again
        ("The Ghent depot has a new loading bay.", "create"),
    ],
)
def test_the_judge_reads_a_fact_without_the_name_leading_it(
    embedder: Embedder, candidate: str, action: str
) -> None:
    stored = ["The Ghent depot closes at 4pm on Fridays.", "The Ghent depot has two forklifts."]
    vecs = embedder.embed([candidate, *stored])
    for label in ("", "Priya: "):
        d = decide(
            JudgeItem(label + candidate, "fact", said_by="Priya"),
            [JudgeItem(label + t, "fact", valid_from="2026-03-01") for t in stored],
            vecs[0],
            vecs[1:],
        )
        assert d.action == action, (label, d.reason)
