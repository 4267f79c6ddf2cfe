"""Who a promise is owed to and when it is due, read from the promise's own words
(core/promises.py). Found by a new-user probe: "Our VAT return is due on 7 November; I'll get
the receipts to my accountant, Mr. Thornton, by 31 October" was due on 7 November and owed to
"accountant". Written by hand for the mechanisms."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.core.promises import promise

SAID = datetime(2026, 3, 2, 9, tzinfo=UTC)  # a Monday


def test_the_due_day_is_the_promises_own() -> None:
    made = promise(
        "The school trip is on 20 March; I'll send the consent form to Mrs. Lund by 13 March.",
        "Ola",
        "Assistant",
        SAID,
    )
    assert made is not None and made.due_at is not None
    assert (made.due_at.month, made.due_at.day) == (3, 13)
    # a day said only before the promise is still its day
    early = promise("By Friday, I'll send you the slides.", "Ola", "Tom", SAID)
    assert early is not None and early.due_at is not None and early.due_at.day == 6


def test_a_role_named_beside_it_is_owed_by_name() -> None:
    made = promise(
        "I'll give the spare keys to our landlord, Mr. Okafor.", "Ola", "Assistant", SAID
    )
    assert made is not None and made.owed_to == "Mr. Okafor"
    plain = promise("I'll give the spare keys to our landlord tomorrow.", "Ola", "Assistant", SAID)
    assert plain is not None and plain.owed_to == "landlord"


def test_whom_a_pledge_is_owed_to_is_read_as_said() -> None:
    """After "promised", "swore", "owe": a capitalised name (the words after it are not its
    surname: "Ivo from the allotment"), a role and the role's name, or the one an act is for
    ("committed to posting my tutor ..."). Read case-blind, "Ivo from" and "posting my" were
    taken for names; "I promised myself" was owed to the listener."""

    def owed(said: str) -> str | None:
        made = promise(said, "Ola", "Tom", SAID)
        return None if made is None else made.owed_to

    assert owed("I promised Ivo from the allotment I'd water his beans on Thursday.") == "Ivo"
    assert owed("I swore to my cousin Bettina I'd come to her recital.") == "Bettina"
    assert owed("I vowed to my trainer I'd stretch after every run.") == "trainer"
    assert owed("We owe Hamid forty pounds for the tickets.") == "Hamid"
    assert owed("I committed to posting my tutor the essay plan by Friday.") == "tutor"
    assert owed("I promised myself I'd read more this year.") is None
    # a name beside a role is a thing promised unless the pledge goes on after it
    assert owed("We promised the kids Lego for their birthday.") == "kids"
    made = promise("I swore to my cousin Bettina I'd come on Saturday.", "Ola", "Tom", SAID)
    assert made is not None and made.due_at is not None and made.due_at.day == 7


def test_a_note_kept_on_a_board_or_calendar_is_bookkeeping() -> None:
    """ "I'll write it on the fridge whiteboard so nobody forgets" keeps a note, as "I'll note
    it" does: no promise, and no part of the fact beside it (extraction_t)."""
    from memory_pipelines.core.note_keeping import bookkeeping, without_bookkeeping

    assert bookkeeping("I'll stick it on the kitchen board so we all see it")
    assert bookkeeping("we'll put that in the shared calendar")
    assert not bookkeeping("I'll put it in the post to you tomorrow")  # a delivery
    assert not bookkeeping("I'll write the eulogy for Gran's service")
    assert (
        without_bookkeeping("Swimming moved to Thursdays, I'll add it to the family calendar.")
        == "Swimming moved to Thursdays."
    )


def test_a_thing_put_where_the_listener_will_find_it_is_owed_to_them() -> None:
    made = promise("I'll have the signed lease in your inbox by Thursday", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Tom"
    assert made.due_at is not None and made.due_at.day == 5
    # having something somewhere of one's own is no promise
    assert promise("I'll have lunch in town on Thursday", "Ola", "Tom", SAID) is None


def test_a_promise_to_do_something_for_somebody_is_owed_to_them() -> None:
    """ "Mum's knee surgery is on the 14th, I promised I'd drive her" was owed to the friend
    it was told to. Our own words."""
    from memory_pipelines.core.extract import extract_window
    from memory_pipelines.core.window_turn import WindowTurn

    made = promise("I promised I'd pick up Nina from school.", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Nina"
    made = promise("I promised to help Jo paint the shed on Saturday.", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Jo"
    # an act done for nobody named stays owed to whom it was told
    made = promise("I promised I'd fix the fence by Friday.", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Tom"

    def owed(text: str) -> list[str | None]:
        window = [
            WindowTurn(1, "user", "Kai", text, SAID),
            WindowTurn(2, "user", "Lu", "aw hope it goes well", SAID),
        ]
        made = extract_window(window, pronoun_of=lambda name: "they")
        return [c.get("owed_to") for c in made if c["category"] == "commitment"]

    # "her" is the one the sentence named before the pledge, or the one relative
    assert owed("Gran's hip operation is on the 9th, I promised I'd drive her") == ["Gran"]
    assert owed("my sister lands at 7 tonight, I promised I'd collect her") == ["sister"]


def test_a_pledge_answering_a_request_is_owed_to_whom_asked() -> None:
    """ "could u send me the photos from saturday" / "yep I'll send them tonight" and "pls
    bring the charger" / "ok I'll bring it" are promises to the one who asked; "I'll bring it"
    had been too short to keep. Our own words."""
    from memory_pipelines.core.extract import extract_window
    from memory_pipelines.core.window_turn import WindowTurn

    def promised(asked: str, said: str) -> list[tuple[str, str | None]]:
        window = [
            WindowTurn(1, "user", "Maya", asked, SAID),
            WindowTurn(2, "user", "Tom", said, SAID),
        ]
        made = extract_window(window, pronoun_of=lambda name: "he")
        return [(c["context"], c.get("owed_to")) for c in made if c["category"] == "commitment"]

    assert promised("pls bring the drill tomorrow", "ok I'll bring it") == [
        ("Tom will bring the drill", "Maya")
    ]
    ((text, owed),) = promised("can you water my plants this week?", "sure, I'll do it daily")
    assert owed == "Maya", text
    # a question that only asks to know is no request: a plan of one's own stays a fact
    assert promised("can you believe the rent went up again", "ugh I'll have to move") == []
    # a pledge made by the assistant in the chat is its next step, owed to no one
    window = [
        WindowTurn(1, "user", "Maya", "can you draft a note to my landlord?", SAID),
        WindowTurn(2, "assistant", "Agent", "Sure, I'll draft it now.", SAID),
    ]
    assert not [c for c in extract_window(window) if c["category"] == "commitment"]


def test_a_thing_had_done_for_someone_is_promised_to_them() -> None:
    """It gave no item ("I'll have the shed painted for you by Friday"): only "ready", "done"
    and a few more were read as a thing readied for someone; any past participle is."""
    made = promise("I'll have the shed painted for you by Friday", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Tom" and made.due_at is not None
    assert made.due_at.day == 6
    made = promise("I'll get the car cleaned for Dad before Sunday", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Dad"
    # a wish for someone else's act is no thing readied for them
    assert promise("I'd have loved for you to come", "Ola", "Tom", SAID) is None


def test_an_act_for_the_two_of_them_is_owed_to_the_listener() -> None:
    """It was a plan of her own ("ok I'll drive us back from the concert", a new user's probe)."""
    made = promise("ok I'll drive us back from the concert", "Lisa", "Omar", SAID)
    assert made is not None and made.owed_to == "Omar"
    made = promise("I'll book us a table for Friday", "Lisa", "Omar", SAID)
    assert made is not None and made.owed_to == "Omar"
    assert promise("I'm going to paint the fence", "Lisa", "Omar", SAID) is None


def test_a_thing_handed_to_somebody_is_promised_to_them_whatever_the_verb() -> None:
    """English gives by the double-object form ("paste you the log", "bake Ana a cake"),
    whether or not the verb is one of giving; a time after the person ("see you this
    weekend") or a verb that asks of them ("ask you a favour") gives nothing."""
    pasted = promise("I'll paste you the full log after lunch.", "Ola", "Assistant", SAID)
    assert pasted is not None and pasted.owed_to == "Assistant"
    assert pasted.due_at == datetime(2026, 3, 2, 17, 0, tzinfo=UTC)
    baked = promise("I'll bake Ana a cake.", "Ola", "Assistant", SAID)
    assert baked is not None and baked.owed_to == "Ana"
    for said in (
        "I'll see you this weekend.",
        "I'll ask you a favour later.",
        "I'll walk you the rest of the way.",
    ):
        assert promise(said, "Ola", "Tom", SAID) is None, said


def test_a_role_owed_is_named_by_its_own_word() -> None:
    """ "my thesis advisor", "our new landlord": the commitments list names the role, so a
    filter by whom it is owed to finds it ("advisor", "landlord"); a name stays as said."""
    made = promise(
        "I committed to handing my thesis advisor the full draft by 18 October.",
        "Ola",
        "Agent",
        SAID,
    )
    assert made is not None and made.owed_to == "advisor"
    made = promise("I'll send our new landlord the deposit by Friday.", "Ola", "Agent", SAID)
    assert made is not None and made.owed_to == "landlord"
    made = promise("I'll send Ana Costa the deposit by Friday.", "Ola", "Agent", SAID)
    assert made is not None and made.owed_to == "Ana Costa"


def test_a_time_said_for_what_the_promise_is_for_is_not_its_due() -> None:
    made = promise(
        "I'll send the gluten-free versions to you tonight, so you can shop before Sunday.",
        "Assistant",
        "Priyanka",
        SAID,
    )
    assert made is not None and made.due_at is not None and made.due_at.day == 2
    # with no time of its own, the one it is for is all there is
    only = promise("I'll send the slides so you have them before Friday.", "Ola", "Tom", SAID)
    assert only is not None and only.due_at is not None and only.due_at.day == 6


def test_a_thing_made_for_one_and_handed_to_the_listener_is_owed_to_the_listener() -> None:
    made = promise(
        "I'll draft a revision plan for Isla, built around 45-minute sessions, and have it"
        " ready for you by Wednesday.",
        "Assistant",
        "Fenella",
        SAID,
    )
    assert made is not None and made.owed_to == "Fenella"
    kept = promise("I'll draft a revision plan for Isla by Wednesday.", "Ola", "Fenella", SAID)
    assert kept is not None and kept.owed_to == "Isla"


def test_a_promise_told_to_one_named_before_it_is_owed_to_them() -> None:
    """ "quick one - my landlord Mr Okafor emailed ... and i told him i'd send it back signed by
    the 20th": a heading, then a promise reported to the one the sentence named."""
    from memory_pipelines.core.extract import WindowTurn, extract_window

    turns = [
        WindowTurn(
            1,
            "user",
            "Ines",
            "quick one - my landlord Mr Okafor emailed over the lease renewal and i told him"
            " i'd send it back signed by the 20th. does it need a witness or just me?",
            SAID,
        ),
        WindowTurn(2, "assistant", "Assistant", "Usually just you and the landlord.", SAID),
    ]
    [made] = [c for c in extract_window(turns) if c["category"] == "commitment"]
    assert "lease" in made["context"] and made["owed_to"] == "Mr Okafor"
    assert made["due_at"][:10] == "2026-03-20"
