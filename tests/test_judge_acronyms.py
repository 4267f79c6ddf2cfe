"""An abbreviation is read as the words the other side of the case spells it with
(core/judge_acronyms.py): "WFH" beside "works from home", "the OU" beside "the Open University".
Every case is written for this file."""

from __future__ import annotations

from memory_pipelines.core.judge_acronyms import spelled_out
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_an_acronym_takes_the_words_whose_initials_it_is() -> None:
    said = "Works from home on Tuesdays and Thursdays"
    assert spelled_out("WFH Tues & Thurs", [said]) == "Works from home Tues & Thurs"
    assert (
        spelled_out("T2D, on metformin", ["Has type 2 diabetes"]) == "type 2 diabetes, on metformin"
    )
    # ... never from stopwords at either end ("in town" is no "IT"), nor when both sides use it
    assert spelled_out("Works in IT", ["Lives in town"]) == "Works in IT"
    assert spelled_out("Studies with the OU", ["OU degree, Open University"]) == (
        "Studies with the OU"
    )
    # ... nor a word typed in capitals for emphasis, longer than an acronym
    assert spelled_out("Got the job, AMAZING", ["A massive amazing zany in news gift"]) == (
        "Got the job, AMAZING"
    )


def test_a_restatement_in_initials_is_the_same_fact(embedder: Embedder) -> None:
    """ "WFH Tues & Thurs" was a new item beside "Works from home on Tuesdays and Thursdays":
    as letters, "WFH" is a value the stored item does not hold."""
    days = "Works from home on Tuesdays and Thursdays, in the office otherwise"
    stored = [days, "Office is near Liverpool Street", "Partner works from home every day"]
    wfh = judge(embedder, "WFH Tues & Thurs", stored)
    assert (wfh.action, wfh.target) == ("merge", 0), wfh
