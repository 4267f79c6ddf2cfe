"""What a later session's news replaces, as extraction writes the items: an end or a start
that dates itself moves no other date, a verb of having negated elsewhere turns nothing round,
a count of something else is no old value, what is kept changes nothing, and a request after
"cool," is no fact. Every case is written for this file; the forms come from probes of a person
talking to the assistant or a friend over months, written by a helper apart from the code."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.concrete import life_event
from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.judge import analyse_case
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.core.window_turn import WindowTurn
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from tests.judge_helpers import judge


def _extracted(embedder: Embedder, at: datetime, *turns: tuple[str, str, str]) -> list[str]:
    """What the local extractor keeps of a chat, turns given as (role, speaker, text)."""
    window = [WindowTurn(n, role, who, text, at) for n, (role, who, text) in enumerate(turns, 1)]
    call = ModelCall("generate", "extract", "local", "rules")
    return [str(c["context"]) for c in LocalBackend(embedder).extract(window, "", (), call)]


def _judged(embedder: Embedder, said: str, stored: list[str], who: str) -> JudgeDecision:
    return judge(embedder, said, stored, said_on="2025-03-02", said_by=who or None)


def test_an_end_dated_by_itself_moves_no_other_date(embedder: Embedder) -> None:
    """The notice handed in replaced the exam booked for May 27th: "from July 1st" against
    "May 27th" was read as a date changed, with "left" for its cue."""
    exam = "Maya booked the exam for May 27th"
    stored = [
        "Maya works from home Mondays and Fridays so those evenings are easiest, no commute",
        exam,
        "Still writing python all day at work btw so the boto3 stuff is easy for Maya",
    ]
    said = (
        "Maya handed in her notice, she is joining a healthtech company called Medisync in"
        " Leeds from July 1st."
    )
    decision = _judged(embedder, said, stored, "Maya")
    assert not (decision.action == "supersede" and stored[decision.target] == exam), decision
    # ... while a date said to move still moves it
    moved = _judged(embedder, "Maya moved the exam to June 3rd", stored, "Maya")
    assert (moved.action, moved.target) == ("supersede", 1), moved


def test_a_verb_of_having_negated_elsewhere_turns_nothing_round(embedder: Embedder) -> None:
    """ "Liam hasn't got a pc yet" was replaced by "Liam got a new job": "got" negated on one
    side only was a claim turned round, though the two share nothing else."""
    pc = "Liam hasn't got a pc yet he is still on ps5 too, he meant fortnite lol"
    stored = ["Serious this time, gf is on at Liam", "Liam is quitting smoking from monday", pc]
    said = "Liam got a new job, left currys, he is at a phone repair shop in town now"
    decision = _judged(embedder, said, stored, "Liam")
    assert not (decision.action == "supersede" and stored[decision.target] == pc), decision
    # ... and with its object shared, it still is one
    turned = _judged(embedder, "Liam has got a pc now", stored, "Liam")
    assert (turned.action, turned.target) == ("supersede", 2), turned


def test_a_count_of_something_else_is_no_old_value(embedder: Embedder) -> None:
    """ "two mornings a week" after the change shared "two" with "two grandchildren", and the
    library job replaced the grandchildren."""
    kids = "Robert has two grandchildren, he and his sister."
    stored = ["Robert's grandson is keen to help, he's 12.", kids]
    said = "Robert is working at the library these days, two mornings a week."
    decision = _judged(embedder, said, stored, "Robert")
    assert not (decision.action == "supersede" and stored[decision.target] == kids), decision


def test_what_is_kept_confirms_its_value_and_settles_only_its_own_plan(
    embedder: Embedder,
) -> None:
    """ "Still £14 per candle, sticking with that" replaced the goal of 200 sales a month (a
    plan, though of something else); it says the price stored stays."""
    stored = [
        "Jasmine raised prices to £14, sales didn't drop at all!",
        "Jasmine: 200 a month by next summer (summer 2026), and a wholesale account with 3 shops",
        "Jasmine switched supplier too, now using Candle Shack, way quicker delivery",
    ]
    said = "Jasmine: Still £14 per candle, sticking with that through christmas"
    decision = _judged(embedder, said, stored, "Jasmine")
    assert (decision.action, decision.target) == ("merge", 0), decision
    # a plan to change what is kept is settled by it
    plan = ["Moving the newsletter to fortnightly from next month", "Uses Buttondown"]
    kept = _judged(embedder, "Staying on a weekly newsletter; fortnightly lost readers", plan, "")
    assert (kept.action, kept.target) == ("supersede", 0), kept


def test_the_speakers_name_is_nobody_else(embedder: Embedder) -> None:
    """ "Jasmine raised prices" (about her by name) and "Still £14 per candle" (her "Jasmine: "
    set aside) were two subjects, and "Sam: 22:45 at Bushy parkrun" named a value, "Sam",
    that "Current PB is 24:10 from parkrun, Sam runs 3 times a week" did not."""
    said = "Sam: 22:45 at Bushy parkrun"
    stored = ["Current PB is 24:10 from parkrun, Sam runs 3 times a week"]
    vectors = embedder.embed([said, *stored])
    candidate = JudgeItem(said, "fact", said_by="Sam").unattributed("Sam")
    _, _, [pair] = analyse_case(candidate, [JudgeItem(stored[0], "fact")], vectors[0], vectors[1:])
    assert not pair.name_conflict
    assert pair.value_conflicts == ("clock",)  # the time itself still differs
    said = "Jasmine: Still £14 per candle"
    item = JudgeItem(said, "fact", said_by="Jasmine")
    vectors = embedder.embed([said, "Jasmine raised prices to £14"])
    _, _, [pair] = analyse_case(
        item.unattributed("Jasmine"),
        [JudgeItem("Jasmine raised prices to £14", "fact")],
        vectors[0],
        vectors[1:],
    )
    assert not pair.subject_conflict


def test_a_request_after_a_word_taking_up_the_answer_is_no_fact(embedder: Embedder) -> None:
    """ "cool, send me a rough 20 week plan" was kept as "Send Maya a rough 20 week plan"."""
    said = _extracted(
        embedder,
        datetime(2025, 1, 14, 10, tzinfo=UTC),
        ("user", "Maya", "I learn better with practice exams than videos btw"),
        ("assistant", "assistant", "Noted - practice questions it is."),
        ("user", "Maya", "cool, send me a rough 20 week plan"),
        ("assistant", "assistant", "Here's a 20-week outline."),
        ("user", "Maya", "ok. show me the cheapest flights to Rome"),
    )
    assert any("practice exams" in s for s in said), said
    assert not any("plan" in s.lower() or "flights" in s.lower() for s in said), said


def test_right_now_tells_a_value_and_no_change(embedder: Embedder) -> None:
    """ "Chris has got about £4k saved right now" replaced what Chris takes home: "now" was a
    change cue, and £4k another amount of money."""
    stored = [
        "Chris takes home about £2,300 a month, rent is £950, and they want to save for a house"
        " deposit"
    ]
    decision = _judged(embedder, "Chris has got about £4k saved right now", stored, "Chris")
    assert decision.action != "supersede", decision


def test_a_clause_of_its_own_after_still_tells_its_own_change(embedder: Embedder) -> None:
    """ "Still an hour a day, and the lessons are now fortnightly": the "still" of the first
    clause took the "now" of the second, and the weekly lessons stayed current."""
    stored = ["Kwame started jazz guitar lessons, once a week with a teacher in Beeston"]
    said = "Still an hour a day, and the lessons are now fortnightly"
    decision = _judged(embedder, said, stored, "Kwame")
    assert (decision.action, decision.target) == ("supersede", 0), decision
    # ... while what "still" holds, with a cue beside it, changes nothing
    food = ["Can't stand mushrooms", "Loves the Thai place on Mill Road"]
    same = _judged(embedder, "Still can't stand mushrooms, even the new place's", food, "")
    assert (same.action, same.target) == ("merge", 0), same


def test_a_test_passed_or_failed_is_news_however_short(embedder: Embedder) -> None:
    """ "I PASSED!!!!!!!" after a driving test was dropped as saying nothing; kept, it settles
    the exam the store holds as booked."""
    assert life_event("I PASSED!!!!!!!") and life_event("failed, 2 majors")
    assert not life_event("time passed slowly") and not life_event("the bill failed to pass")
    assert life_event("mum passed away last week")  # a death, as before
    at = datetime(2025, 4, 23, 18, tzinfo=UTC)
    said = _extracted(embedder, at, ("user", "Isla", "I PASSED!!!!!!!"), ("user", "Mia", "NO WAY"))
    assert said == ["Isla passed!!!!!!!"], said
    stored = ["Maya booked the exam for May 27th", "Maya works from home Mondays"]
    decision = _judged(embedder, "Maya passed!!", stored, "Maya")
    assert (decision.action, decision.target) == ("supersede", 0), decision


def test_a_relative_is_not_the_speaker(embedder: Embedder) -> None:
    """ "Grandad gave Isla his old fiat 500 bc he stopped driving": the grandad stopped
    driving, and Isla's driving test stays booked."""
    stored = ["Isla is driving test booked; 14th march", "Mum said Isla can use her corsa"]
    said = "Grandad gave Isla his old fiat 500 bc he stopped driving"
    decision = _judged(embedder, said, stored, "Isla")
    assert not (decision.action == "supersede" and decision.target == 0), decision


def test_a_question_in_a_last_clause_typed_without_its_mark_is_no_fact() -> None:
    """ "anyway distract me, hows the marathon training" was kept as "Distract Lucy, hows the
    marathon training": Beth's marathon became Lucy's. A question in the last clause, its mark
    left off, asks ("hows" is "how's"); one of what was just said does not ("got the job,
    how's that" keeps the job)."""
    said = "anyway distract me, hows the marathon training"
    assert durable_parts(said, "user", [], "Beth", to_person=True) == []
    kept = durable_parts("got the job, how's that", "user", [], "Beth", to_person=True)
    assert [s for s, _ in kept] == ["I got the job, how's that"]
