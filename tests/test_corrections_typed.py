"""Corrections and promises as people type them in chat: a list of days put right whole, a dose
put right by its value with the unit, a named thing said to have moved, a move that may come,
a request before the statement, and a sum said in the promise's own sentence."""

from __future__ import annotations

from datetime import datetime

from memory_pipelines.core.antecedents import with_antecedents
from memory_pipelines.core.corrections import apply_to_earlier, correction, without_old
from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.core.promised_thing import the_thing_promised
from memory_pipelines.core.promises import as_pledge, promise
from memory_pipelines.core.restated import restated
from memory_pipelines.core.sentence_clauses import without_request_first
from memory_pipelines.models.embedder import Embedder
from tests.extract_helpers import window_items


def test_a_list_of_days_is_put_right_whole() -> None:
    fix = correction("oh wait its actually tuesdays and fridays not mondays, they changed it")
    assert fix is not None and (fix.new, fix.old, fix.bare) == (
        "tuesdays and fridays",
        "mondays",
        True,
    )
    _, fixed = apply_to_earlier(fix, ["btw i wfh mondays and fridays"]) or (0, "")
    assert fixed == "btw i wfh tuesdays and fridays, not mondays and fridays"
    assert without_old(fixed) == ("btw i wfh tuesdays and fridays", "mondays and fridays")


def test_a_chat_sentence_with_its_subject_is_no_note_to_join() -> None:
    assert with_antecedents(
        [(0, "My manager's called Felix, he's nice.", "fact"), (1, "Btw i wfh mondays", "fact")],
        {0: "My manager's called Felix, he's nice."},
    ) == {0: "My manager's called Felix, he's nice.", 1: "Btw i wfh mondays"}
    items = window_items(
        ("Nadia", "user", "my manager's called Felix, he's nice. btw i wfh mondays and fridays"),
        ("Assistant", "assistant", "That's a nice setup."),
        ("Nadia", "user", "oh wait its actually tuesdays and fridays not mondays"),
    )
    texts = [text for _, text in items]
    assert "Nadia's manager's called Felix, he's nice." in texts  # not joined to the days
    assert "Nadia wfhs tuesdays and fridays" in texts


def test_a_dose_put_right_by_its_value_takes_the_unit_of_the_one_it_replaces() -> None:
    fix = correction("oh wait just checked the box, it's 25mg to start not 50.")
    assert fix is not None and (fix.new, fix.old) == ("25mg", "50")
    assert apply_to_earlier(fix, ["gp started me on sertraline today.", "50mg once a day"]) == (
        1,
        "25mg, not 50mg, once a day",
    )


def test_a_named_thing_said_to_have_moved_puts_right_what_told_it() -> None:
    assert restated("oh wait mrs doyle just texted, exam got moved to 25 nov") == (
        "exam got moved to 25 nov",
        ["25", "nov"],
    )
    assert restated("we moved to 14 Elm St") is None  # a person's move is no correction
    items = window_items(
        ("Fatima", "user", "grade 3 piano exam on 18 nov, help me make a practice plan"),
        ("Assistant", "assistant", "Sure! How much time can you practise each day?"),
        ("Fatima", "user", "oh wait mrs doyle just texted, exam got moved to 25 nov"),
    )
    texts = [text for _, text in items]
    assert "Fatima: Grade 3 piano exam on 25 nov." in texts
    assert not any("18 nov" in text for text in texts)


def test_a_move_that_may_come_replaces_nothing(embedder: Embedder) -> None:
    stored = ["Grace: 25mg of sertraline once a day"]
    said = "Goes up to 50 after 2 weeks if Grace is ok on it"
    vectors = embedder.embed([said, *stored])
    decision = decide(
        JudgeItem(said, "fact", said_by="Grace"),
        [JudgeItem(text, "fact", valid_from="2025-06-02") for text in stored],
        vectors[0],
        vectors[1:],
        embed=embedder.embed,
    )
    assert decision.action != "supersede", decision


def test_a_request_first_leaves_the_statement_after_it() -> None:
    said = "can you help me outline the q3 report, I told Ingrid I'd have it to her by thursday"
    assert without_request_first(said) == "I told Ingrid I'd have the q3 report to her by thursday"
    assert without_request_first("can you believe it, I won!") == "can you believe it, I won!"
    made = promise(
        as_pledge("I told Ingrid I'd have the q3 report to her by thursday"),
        "Henrik",
        "Assistant",
        datetime(2025, 6, 2),
    )
    assert made is not None and made.owed_to == "Ingrid"


def test_a_sum_said_in_the_promise_is_not_looked_for_before_it() -> None:
    said = (
        "Also I owe my brother kenji £150 from the concert, told him I would pay him back by friday"
    )
    assert the_thing_promised(said, [("Hana", "20k by end of 2026.")], "Hana", "Agent") == said
    # ... and a year is no sum
    back = "I will pay you back by friday"
    assert the_thing_promised(back, [("Hana", "we booked it in 2026")], "Hana", "Tom") == back


def test_a_thing_named_with_its_new_value_after_a_cue_puts_right_what_told_it() -> None:
    said = "oh and correction the rent's 975, forgot they added the parking space"
    assert restated(said) == ("the rent's 975", ["975"])
    assert restated("and the kids are 7 and 9") is None  # no cue: no correction
    items = window_items(
        ("Mei", "user", "leaving leeds after 6 yrs lol. rent is 950 a month, landlord is mr patel"),
        ("Assistant", "assistant", "Exciting. Do you want help with a moving checklist?"),
        ("Mei", "user", "maybe later. " + said),
    )
    texts = [text for _, text in items]
    assert "Mei: Rent is 975 a month, landlord is mr patel" in texts


def test_she_is_the_nana_the_speaker_named() -> None:
    items = window_items(
        ("Aisha", "user", "my nana joyce turns 90 on may 3rd!!"),
        ("Assistant", "assistant", "How lovely! Are you helping with anything?"),
        (
            "Aisha",
            "user",
            "i said i'd bake the cake lol. but she's diabetic so it has to be low sugar",
        ),
    )
    assert any(text.startswith("Aisha's nana's diabetic") for _, text in items)
