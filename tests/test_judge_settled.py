"""What settles a stored intention, job, pet or application in a later session: the act the
item said would be done, done; an employer or place left by name; a pet lost by name; a place
won after an application. Every case is written for this file; the forms come from probes of a
person talking to the assistant or a friend over months, written by a helper apart from the
code."""

from __future__ import annotations

from memory_pipelines.core.judge_cues import change_cues
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


def test_a_course_or_race_withdrawn_from_is_an_end(embedder: Embedder) -> None:
    """ "Withdrew from the course" was merged into the item of the course: withdrawing and
    pulling out were no cues of an end."""
    course = "Studying for a part-time law diploma at Birkbeck, second year"
    stored = [course, "Works as a paralegal in Holborn", "Hopes to qualify as a solicitor"]
    withdrew = _judged(
        embedder, "Withdrew from the Birkbeck law diploma, too much on at work", stored, None
    )
    assert _replaces(withdrew, stored, course), withdrew
    race = "Omar is training for the Lisbon half marathon in October"
    runs = ["Omar's 10k best is 47:10", race, "Omar runs with a club in Croydon"]
    pulled = _judged(
        embedder, "Omar pulled out of the Lisbon half marathon, his calf went", runs, "Omar"
    )
    assert _replaces(pulled, runs, race), pulled


def test_stop_with_the_thing_ends_the_preference_for_it(embedder: Embedder) -> None:
    emojis = "Likes replies with emojis in them"
    stored = [emojis, "Wants code samples in TypeScript"]
    said = _judged(embedder, "Stop with the emojis, plain text is fine", stored, None)
    assert _replaces(said, stored, emojis), said


def test_a_pet_buried_by_name_ends_the_item_that_names_it(embedder: Embedder) -> None:
    """The item that says the pet is there names it ("called Pepper") without being about it;
    a nearer item about the pet says nothing of whether it is there."""
    dog = "Has an elderly spaniel called Pepper, 15"
    stored = ["Dog walker comes on Tuesdays", dog, "Pepper is on heart medication twice a day"]
    buried = _judged(embedder, "We buried Pepper under the apple tree on Sunday", stored, None)
    assert _replaces(buried, stored, dog), buried


def test_a_count_of_what_is_left_moves_the_count(embedder: Embedder) -> None:
    """ "two hens left after a fox took Marigold" told no change: a count of what remains is a
    number moved, the time left is not."""
    assert "number moved" in change_cues("Only three goldfish left after the heron visited")
    assert "number moved" not in change_cues("Passport has six months left on it")
    fish = "Keeps five goldfish in the pond"
    stored = ["The pond has a solar pump", fish, "Neighbour keeps koi"]
    left = _judged(embedder, "Only three goldfish left after the heron visited", stored, None)
    assert _replaces(left, stored, fish), left


def test_a_plan_called_off_by_what_it_names(embedder: Embedder) -> None:
    """ "Japan's off this year" called nothing off: "off" had to end the clause, and "planning
    a trip" was no plan."""
    trip = "Planning a trip to Japan in April"
    stored = ["Went to Canada in 2022", "The car needs new tyres, about £400", trip]
    off = _judged(
        embedder, "Japan's off this year, the money is going on the car instead", stored, None
    )
    assert _replaces(off, stored, trip), off


def test_a_last_night_somewhere_is_leaving_it(embedder: Embedder) -> None:
    home = "Lives in student halls in Selly Oak with six flatmates"
    stored = ["Studies dentistry at Birmingham", home, "Best friend Ria lives in Harborne"]
    said = "Got a one-bed in Harborne, Friday was my last night in halls"
    moved = _judged(embedder, said, stored, None)
    assert _replaces(moved, stored, home), moved


def test_a_move_one_would_consider_moves_nothing(embedder: Embedder) -> None:
    """ "Would consider moving to Porto if ..." replaced "Lives in Lisbon": "would consider"
    governs the move as "considering" does."""
    home = "Lives in Bristol, in Bedminster"
    stored = ["Sister works in Cardiff three days a week", home]
    said = "Would consider moving to Cardiff if the job went fully remote"
    decision = _judged(embedder, said, stored, None)
    assert not _replaces(decision, stored, home), decision
    assert decision.action == "create", decision
