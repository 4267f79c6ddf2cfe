"""A promise reported kept closes its commitment: core/fulfilment.reports_done reads it from what
the two say, dedup (api/dedup.py) fulfils the commitment in the save's transaction, and the
report itself is a fact of its own. A promise only handed over ("the draft I promised you")
is no new commitment (core/promises.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.fulfilment import names_its_act, reports_done
from memory_pipelines.core.past_tense import past_forms
from memory_pipelines.core.promises import promise
from memory_pipelines.core.types import SaveResult
from tests.promise_helpers import commitment

KEPT = [
    ("Lena will pay Tom back the 40 euros by the end of the month.", "Lena paid Tom back."),
    ("Ana will send the signed contract to Mr Patel", "Ana has sent the signed contract."),
    ("Omar will call Green Fork tomorrow to check the 19th", "Omar called Green Fork, all set."),
    ("Sam will drop the kids at school on Monday", "Sam just dropped the kids at school."),
    ("Jo will copy the photos to the shared drive", "Jo copied the photos over today."),
    ("Tom will do the grocery shopping on Saturday", "Tom did the grocery shopping."),
    ("Kim is going to write the release notes for Ravi", "Kim finally wrote the release notes."),
    # the promise told as reported speech, as extraction stores "I promised X I'd ..."
    ("Ola promised the landlord she would pay the deposit by Friday", "Ola paid the deposit."),
    ("Ian told Mia he'd send her the slides by 3 May", "Ian sent Mia the slides on the 2nd."),
    # ... with the owner named again, as extraction writes it, and whom with a title or aside
    (
        "Rui promised Dr. Lowe Rui would email the scan results by Monday",
        "Rui emailed the scan results to Dr. Lowe.",
    ),
    ("Bea promised her plumber, Mr. Ode, Bea would transfer the fee", "Bea transferred the fee."),
    # how it was done is no other thing done: "late", "early", "again"
    ("Jon will return the hired silver van by noon", "Jon returned the hired van late."),
    # the act done beside another, and "did" + the act
    ("Eve will return the signed form to HR", "Eve signed the form and returned it to HR."),
    ("Raj is going to ring the council about parking", "Raj did ring the council on Monday."),
]
NOT_KEPT = [
    # not done, not yet, only planned, asked
    ("Lena will pay Tom back the 40 euros", "Lena still hasn't paid Tom back."),
    ("Lena will pay Tom back the 40 euros", "Lena didn't pay Tom back the 40 euros."),
    ("Bruno will book the venue for the offsite", "Bruno will book the venue tomorrow."),
    ("Bruno will book the venue for the offsite", "Did Bruno book the venue?"),
    ("Bruno will book the venue for the offsite", "Bruno forgot to book the venue."),
    # another thing done to the same person or place, another act, another person
    ("Ana will send the signed contract to Mr Patel", "Ana sent Mr Patel a birthday card."),
    ("Bruno will book the venue for the Porto offsite", "Bruno booked flights to Porto."),
    ("Tom will do the grocery shopping on Saturday", "Tom did the laundry."),
    ("Tom will do the grocery shopping on Saturday", "Tom bought a new bike."),
    ("Priya will review Ben's pull request", "Ben reviewed Priya's pull request."),
    ("Ian told Mia he'd send her the slides by 3 May", "Ian sent Tom the budget."),
    ("Rui promised Dr. Lowe Rui would email the scan results", "Rui emailed Dr. Lowe a thank-you."),
    # another one of its kind
    ("Sam will send the budget report to Rita", "Sam sent the Q3 report to Rita."),
    ("Lea will book the Lisbon hotel for May", "Lea booked the Porto hotel."),
    ("Ola promised the landlord she would pay the deposit", "Ola paid the plumber."),
    ("Eve will return the signed form to HR", "Eve cleaned the desk and returned the keys."),
    # not a commitment's wording at all
    ("Lena likes paying in cash", "Lena paid in cash."),
]


@pytest.mark.parametrize(("commitment", "report"), KEPT)
def test_a_report_of_the_same_act_by_the_owner_keeps_the_promise(
    commitment: str, report: str
) -> None:
    assert reports_done(commitment, report)


@pytest.mark.parametrize(("commitment", "report"), NOT_KEPT)
def test_a_denial_a_plan_or_another_act_keeps_nothing(commitment: str, report: str) -> None:
    assert not reports_done(commitment, report)


def test_past_forms() -> None:
    assert past_forms("pay") == {"paid"}
    assert past_forms("write") == {"wrote", "written"}
    assert past_forms("book") == {"booked"}
    assert past_forms("file") == {"filed"}
    assert past_forms("copy") == {"copied"}
    assert "dropped" in past_forms("drop")


WHEN = datetime(2026, 12, 2, 10, tzinfo=UTC)


def test_a_promise_handed_over_is_no_new_commitment() -> None:
    for kept in (
        "Here's the grant proposal draft I promised you.",
        "Here are the three caterers I promised: Green Fork, Basil and Ruby's.",
        "Attached is the report I promised.",
    ):
        assert promise(kept, "Tom", "Maya", WHEN) is None, kept
    made = promise("I promised Maya I'd send the draft by Friday.", "Tom", "Ana", WHEN)
    assert made is not None and made.owed_to == "Maya"
    assert promise("I promise you the notes by Friday.", "Tom", "Maya", WHEN) is not None


def test_dedup_fulfils_the_commitment_a_save_reports_kept(memory: Memory) -> None:
    promised = commitment(memory, "Maya will pay Tom back the 40 euros by the end of the month")
    other = commitment(memory, "Maya will book the venue for the party by Wednesday")
    denied = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Maya still hasn't paid Tom back"}
    )
    assert denied.fulfilled is None and memory.get(promised).status == "open"
    res = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Maya paid Tom back the 40 euros today"},
        written_by="key k1",
    )
    assert res.fulfilled == promised
    # the report is a fact of its own, never merged into the promise it keeps
    assert res.id is not None and res.merged_into is None and res.id != promised
    assert memory.get(res.id).context == "Maya paid Tom back the 40 euros today"
    kept = memory.get(promised)
    assert kept.status == "fulfilled" and kept.state == "current"
    assert [(v.change, v.actor) for v in memory.history(promised)][-1] == ("fulfil", "key k1")
    with memory.db.connection() as conn:
        [payload] = (
            conn.execute(
                "SELECT payload FROM events WHERE item_id = %s AND kind = 'fulfil'", (promised,)
            )
            .fetchone()
            .values()
        )
    assert payload == {"from": "open", "reported_in": res.id}
    assert memory.get(other).status == "open"
    assert [c.item_id for c in memory.commitments(status="open")] == [other]


def test_a_report_keeps_the_same_promise_saved_twice_and_is_merged_into_neither(
    memory: Memory,
) -> None:
    """Found by a new-user probe: of two copies of one promise, the report closed one and was
    merged into the other, which stayed open (and the report was no record of its own)."""
    text = "Lena will return Omar's ladder by Sunday"
    copies = [commitment(memory, text), commitment(memory, text)]
    res = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Lena returned Omar's ladder this morning"}
    )
    assert res.merged_into is None and res.id is not None and res.id not in copies
    assert res.fulfilled in copies
    assert [memory.get(c).status for c in copies] == ["fulfilled", "fulfilled"]
    assert memory.commitments(status="open") == []


def test_another_promise_to_the_same_person_is_merged_into_no_commitment(
    memory: Memory,
) -> None:
    """Found by a new-user probe: "will send Tom the budget report" was merged into "will pay
    Tom back the 40 euros" (same owner, same person owed), so the new promise never reached
    the commitments list and the old one took its words."""
    ladder = commitment(memory, "Lena will return Omar's ladder by Sunday")

    def promised(text: str) -> SaveResult:
        return memory.save_with_dedup({"category": "commitment", "confidence": 7, "context": text})

    drill = promised("Lena will lend Omar her drill by Sunday")
    assert drill.merged_into is None and drill.id not in (None, ladder)
    money = commitment(memory, "Priya will pay Sam back the 25 pounds by the end of the week")
    forms = promised("Priya will send Sam the tax forms by Monday")
    assert forms.merged_into is None and forms.id not in (None, money)
    again = promised("Lena will give Omar his ladder back by Sunday")
    assert again.merged_into == ladder  # the same promise in other words is still one
    open_ = {c.item_id for c in memory.commitments(status="open")}
    assert open_ == {ladder, drill.id, money, forms.id}


def test_a_promise_owed_to_someone_else_neither_replaces_nor_joins_a_commitment(
    memory: Memory,
) -> None:
    """Found by a new-user probe: "I said I'd give the school the signed trip form by 6 June"
    replaced "I promised Mrs Tanaka I'd send her the membership form by 23 May" (the deadline
    of one thing moved: both are forms). Promises owed to two people are two promises."""
    zoe = memory.save(
        {"category": "commitment", "confidence": 8, "status": "open", "owed_to": "Dr Okafor",
         "context": "Jonas will bring Dr Okafor the signed consent form by 3 March"}
    ).id  # fmt: skip
    club = memory.save_with_dedup(
        {"category": "commitment", "confidence": 7, "status": "open", "owed_to": "the club",
         "context": "Jonas will hand the club the signed membership form by 10 March"}
    )  # fmt: skip
    assert club.superseded is None and club.merged_into is None and club.id not in (None, zoe)
    assert "another" in (club.reason or ""), club.reason
    moved = memory.save_with_dedup(
        {"category": "commitment", "confidence": 7, "status": "open", "owed_to": "Dr Okafor",
         "context": "Jonas will bring Dr Okafor the signed consent form by 10 March instead"}
    )  # fmt: skip
    assert moved.superseded == zoe or moved.merged_into == zoe, moved  # the same one, moved


def test_another_promise_or_plan_never_replaces_a_commitment(memory: Memory) -> None:
    """Found by a new-user probe: "send Maria the abstract by 10 October" had replaced "send
    Helen chapter 2 by 1 October" (a deadline moved), so that promise was never seen again."""
    helen = commitment(memory, "Kenji promised Helen he would send her chapter 2 by 1 October")
    maria = memory.save_with_dedup(
        {
            "category": "commitment",
            "confidence": 7,
            "context": "Kenji told Maria he would send her the draft abstract by 10 October",
            "status": "open",
        }
    )
    assert maria.superseded is None and maria.id is not None
    assert memory.get(helen).state == "current" and memory.get(helen).status == "open"
    # its own deadline moved does replace it
    moved = memory.save_with_dedup(
        {
            "category": "commitment",
            "confidence": 7,
            "context": "Kenji will send Helen chapter 2 by 15 October instead",
            "status": "open",
        }
    )
    assert moved.superseded == helen
    # and the promise kept, as reported speech, closes it
    res = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Kenji sent Maria the abstract on the 8th"}
    )
    assert res.fulfilled == maria.id


def test_what_a_promise_names() -> None:
    promised = "Kenji will have a cost breakdown ready for Helen by Friday"
    assert names_its_act(promised, "The cost breakdown for Helen is pushed to Monday")
    # the one it is owed to, named alone, is not what it promises
    assert not names_its_act(promised, "Starting in September, Helen will put a sign up")
    # a promise with nothing but names: the names are what it is done to
    assert names_its_act("Maya will pay Tom back", "Maya can't pay Tom until May")


def _say(memory: Memory, text: str, run: str) -> None:
    """Maya says `text` in her chat, the assistant answers, and extraction runs."""
    turns = [
        {"speaker": "Maya", "text": text},
        {"speaker": "assistant", "role": "assistant", "text": "Noted."},
    ]
    memory.write_turns("maya-dm", turns, person="maya")
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, run)


def test_extraction_closes_a_promise_the_chat_reports_kept(memory: Memory) -> None:
    """The whole path: a promise said in a chat, then said kept in a later turn."""
    memory.add_person("maya")
    _say(memory, "I'll pay Tom back the 40 euros by the end of the month.", "t1")
    [open_] = memory.commitments(status="open")
    _say(memory, "I still haven't paid Tom back, sorry.", "t2")
    assert memory.get(open_.item_id).status == "open"
    _say(memory, "I paid Tom back the 40 euros today, so we're square.", "t3")
    assert memory.get(open_.item_id).status == "fulfilled"
    assert memory.commitments(status="open") == []
    assert any("paid Tom back" in i.context for i in memory.items())


def test_a_promise_closed_by_another_writer_meanwhile_fails_no_save(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commitment was open when dedup read its neighbours, and another writer fulfilled it
    before dedup closed it: the save goes through, nothing is closed twice."""
    from memory_pipelines.api import dedup

    promised = commitment(memory, "Maya will pay Tom back the 40 euros by Friday")
    real = dedup.reports_done

    def closed_meanwhile(commitment: str, statement: str) -> bool:
        memory.fulfil(promised, actor="key k2")  # another connection, committed
        return real(commitment, statement)

    monkeypatch.setattr(dedup, "reports_done", closed_meanwhile)
    res = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Maya paid Tom back the 40 euros"}
    )
    assert res.saved and res.id is not None and res.fulfilled is None
    assert [(v.change, v.actor) for v in memory.history(promised)] == [
        ("create", ""),
        ("fulfil", "key k2"),
    ]


def test_only_the_promise_of_the_same_person_is_closed(memory: Memory) -> None:
    """A shared promise is closed by nobody's own report, and a person's by no shared one:
    the closing would tell its readers that the other said something (found by the isolation
    state machine)."""
    memory.add_person("ana")
    shared = memory.save(
        {"category": "commitment", "confidence": 8, "context": "Sam will send the Q3 report"}
    ).id
    anas = memory.save(
        {"category": "commitment", "confidence": 8, "person": "ana",
         "context": "Sam will send the budget report"}
    ).id  # fmt: skip
    own = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "person": "ana", "context": "Sam sent the Q3 report"}
    )
    assert own.fulfilled is None and memory.get(shared).status == "open"
    said = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "context": "Sam sent the budget report"}
    )
    assert said.fulfilled is None and memory.get(anas).status == "open"
    kept = memory.save_with_dedup(
        {"category": "fact", "confidence": 7, "person": "ana",
         "context": "Sam sent the budget report today"}
    )  # fmt: skip
    assert kept.fulfilled == anas


def test_a_promise_put_off_stays_owed_with_its_new_day(memory: Memory) -> None:
    """Found by a second new-user probe: "it'll be 27 March now instead of the 20th" replaced
    the promise with a plain decision, so the promise left the commitments list."""
    memory.add_person("maya")
    _say(memory, "I promised Oskar I'd have the garden plans ready by 12 March.", "t1")
    [first] = memory.commitments(status="open")
    assert first.owed_to == "Oskar" and first.due_at is not None
    _say(memory, "The garden plans are slipping, I told Oskar it'll be 19 March now.", "t2")
    [moved] = memory.commitments(status="open")
    assert moved.item_id != first.item_id and memory.get(first.item_id).state == "superseded"
    assert moved.owed_to == "Oskar"
    assert moved.due_at is not None and (moved.due_at.month, moved.due_at.day) == (3, 19)


def test_a_promise_about_a_health_matter_is_a_commitment_and_a_plan_one_stays_a_fact(
    memory: Memory,
) -> None:
    """Found by a new-user probe: "I'll send her his asthma card by Wednesday" was stored as a
    plain fact (a health sentence was a fact whatever it did), so a parent's medical promises
    never reached the commitments list. A health plan owed to nobody is still kept."""
    memory.add_person("maya")
    _say(memory, "His swim coach is Mr Aziz. I'll send him the epipen letter by Friday.", "t1")
    [promise] = memory.commitments(status="open")
    assert "epipen" in promise.context.lower() and promise.owed_to == "Mr Aziz", promise
    assert promise.due_at is not None
    _say(memory, "I'm going to start Leo on the new inhaler tomorrow.", "t2")
    assert len(memory.commitments(status="open")) == 1
    assert any("inhaler" in i.context for i in memory.items() if i.category == "fact")


def test_a_promise_to_him_of_someones_thing_is_owed_to_the_one_just_named(
    memory: Memory,
) -> None:
    """Found by a new-user probe: "I'll send him Leo's membership form by Friday" was owed to
    the assistant: a possessive name after "him" was not read as the thing handed over."""
    memory.add_person("maya")
    _say(memory, "The piano teacher is Mrs Ilic. I'll give her Ana's exam forms by Monday.", "t1")
    [promise] = memory.commitments(status="open")
    assert promise.owed_to == "Mrs Ilic", promise


def test_a_report_of_the_act_is_never_merged_into_its_promise(memory: Memory) -> None:
    """Found by a new-user probe: "paid Oakridge's invoice early, today" was merged into the
    promise to pay it (the report gone, the promise open), while without "early" it closed it.
    A statement of the owner doing the promised act is a fact of its own, whether or not it is
    read as keeping the promise."""
    van = commitment(memory, "Jon will return the hired van and its trailer to Kestrel Hire")
    res = memory.save_with_dedup(
        {
            "category": "fact",
            "confidence": 7,
            "context": "Jon returned the hired van to Kestrel Hire, but not its trailer yet",
        }
    )
    assert res.merged_into is None and res.id not in (None, van)
    assert memory.get(van).status == "open"  # half done is not kept
