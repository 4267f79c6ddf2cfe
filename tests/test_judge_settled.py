"""What settles a stored intention, job, pet or application in a later session: the act the
item said would be done, done; an employer or place left by name; a pet lost by name; a place
won after an application. Every case is written for this file; the forms come from probes of a
person talking to the assistant or a friend over months, written by a helper apart from the
code."""

from __future__ import annotations

from memory_pipelines.core.judge_types import JudgeDecision
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def _judged(embedder: Embedder, said: str, stored: list[str], who: str | None) -> JudgeDecision:
    return judge(embedder, said, stored, said_on="2025-03-02", said_by=who)


def _replaces(decision: JudgeDecision, stored: list[str], text: str) -> bool:
    return decision.action == "supersede" and stored[decision.target] == text


def test_an_intention_done_replaces_it_whenever_it_was_done(embedder: Embedder) -> None:
    """ "Chris will open one this month (May 2025)" stayed an open plan beside "opened the
    LISA with Moneybox in June": June against May was read as another value of the month."""
    plan = "Chris will open one this month (May 2025)"
    stored = ["Chris has about £4k saved for a house deposit", plan]
    done = _judged(embedder, "Chris opened the LISA with Moneybox in June", stored, "Chris")
    assert _replaces(done, stored, plan), done
    assert done.reason.startswith("an intention carried out"), done
    # ... another thing done by the same verb's owner settles nothing
    other = ["Maya will buy a car next month"]
    bought = _judged(embedder, "Maya bought a bike", other, "Maya")
    assert bought.action != "supersede", bought


def test_an_employer_or_place_left_by_name_ends_the_item(embedder: Embedder) -> None:
    """ "Jasmine left Boots" was merged into "went part time at Boots": "left" was a cue only
    before "the", "a", "his" ..., never before a name."""
    job = "Jasmine went part time at Boots, 3 days a week"
    stored = ["Jasmine sells candles on Etsy", job]
    left = _judged(embedder, "Jasmine left Boots", stored, "Jasmine")
    assert _replaces(left, stored, job), left
    supervisor = ["Yusuf's supervisor is Prof Hale", "Yusuf is writing up his thesis"]
    gone = _judged(
        embedder, "Prof Hale left for Oxford so Yusuf is with Dr Okafor now", supervisor, "Yusuf"
    )
    assert _replaces(gone, supervisor, supervisor[0]), gone
    # ... a thing left for somebody ends nothing
    note = _judged(embedder, "Tom left Anna a note", ["Tom works at Boots"], "Tom")
    assert note.action != "supersede", note


def test_a_pet_lost_by_name_is_gone(embedder: Embedder) -> None:
    """ "Owen lost Biscuit last week" was another fact beside "Owen's beagle Biscuit is 11",
    which stayed current as if the dog were alive."""
    dog = "Owen's beagle Biscuit is 11, and has started limping"
    stored = [dog, "Owen works nights at the depot"]
    lost = _judged(embedder, "Owen lost Biscuit last week", stored, "Owen")
    assert _replaces(lost, stored, dog), lost
    # ... a thing of somebody's lost is no death
    number = _judged(embedder, "Owen lost Tom's number", stored, "Owen")
    assert not _replaces(number, stored, dog), number


def test_a_place_won_settles_the_application(embedder: Embedder) -> None:
    """ "Yusuf got into Edinburgh" was merged into "applied to Edinburgh and UCL": an
    application awaits its outcome, and "got into <a place>" is one."""
    applied = "Yusuf applied to Edinburgh and UCL, deadline is April"
    stored = [applied, "Yusuf speaks English, Arabic and French"]
    won = _judged(embedder, "Yusuf got into Edinburgh", stored, "Yusuf")
    assert _replaces(won, stored, applied), won
    # ... and the place won told again is the same step, not a change
    place = ["Kofi got a place at Harrowgate Grammar", "Kofi plays the cello"]
    again = _judged(
        embedder,
        "Son Kofi got into Harrowgate Grammar and starts Year 7 there this September",
        place,
        None,
    )
    assert (again.action, again.target) == ("merge", 0), again
