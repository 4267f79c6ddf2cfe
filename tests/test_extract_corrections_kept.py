"""A correction said in conversation is kept as what is true now ("The school play is on
Thursday", not "..., not Wednesday,"), and still replaces the record of the old value: the
dedup judge reads it as it was said, the old value named (its metadata `judged_as`), and a
name put right is found by that name alone. Written by hand for the mechanisms; found on a
chat set written apart from the code (extraction_t), whose corrected items still said the old
value, so a reader saw both."""

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.corrections import apply_to_earlier, correction, without_old


def test_the_old_value_is_taken_out_of_the_sentence() -> None:
    assert without_old("The play is on Thursday, not Wednesday, in the hall.") == (
        "The play is on Thursday in the hall.",
        "Wednesday",
    )
    # a clause after it keeps its comma
    assert without_old("The play is on Thursday, not Wednesday, so book the hall.") == (
        "The play is on Thursday, so book the hall.",
        "Wednesday",
    )
    assert without_old("The play is on Thursday.") is None


def test_a_name_put_right_replaces_the_record_and_names_only_the_new(memory: Memory) -> None:
    turns = [
        {"speaker": "Ola", "text": "Our plumber is Tomasz Wrona from Leith, he's great."},
        {"speaker": "Ines", "text": "Good to have a name!"},
        {"speaker": "Ola", "text": "Hmm, actually it's Tomasz Wrobel, not Wrona."},
    ]
    memory.write_turns("ola-ines", turns)
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    current = [i for i in memory.items() if "Tomasz" in i.context]
    assert len(current) == 1, [i.context for i in memory.items()]
    (fixed,) = current
    assert "Wrobel" in fixed.context and "Wrona" not in fixed.context
    assert fixed.metadata["corrects"] == "Wrona"
    # the old record is superseded, kept in the fact's history
    assert any("Wrona" in v.snapshot.context for v in memory.history(fixed.id))


def test_a_date_put_right_after_a_cue_replaces_its_sentence(memory: Memory) -> None:
    turns = [
        {"speaker": "Ola", "text": "My eye test is on the 9th. Hold on, no, the 11th."},
        {"role": "assistant", "speaker": "assistant", "text": "The 11th, noted."},
    ]
    memory.write_turns("ola-dm", turns)
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    said = [i.context for i in memory.items() if "eye test" in i.context]
    assert len(said) == 1 and "11th" in said[0] and "9th" not in said[0], said


def test_a_time_put_right_finds_the_sentence_by_its_value(memory: Memory) -> None:
    """ "I misread the email, it's 7:45, not 7" shares no word with "Booked a table at Nonna's
    for 7pm": a number is specific enough to find the sentence alone, with its half of the
    day ("7pm" -> "7:45pm")."""
    turns = [
        {"speaker": "Ola", "text": "Booked a table at Nonna's for 7pm on Friday."},
        {"role": "assistant", "speaker": "assistant", "text": "Lovely, enjoy."},
        {"speaker": "Ola", "text": "Oh and I misread the email, it's 7:45, not 7."},
    ]
    memory.write_turns("ola-dm", turns)
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    said = [i.context for i in memory.items() if "Nonna" in i.context]
    assert len(said) == 1 and "7:45pm" in said[0] and "7pm" not in said[0], said
    assert said[0].startswith("Ola booked a table"), said


def test_how_the_slip_came_about_is_no_fact() -> None:
    """The turn that corrects itself often says how the slip came about ("I keep mixing the
    two up", "Just looked at the letter"): no fact of the speaker's, so no item."""
    from datetime import UTC, datetime

    from memory_pipelines.core.extract import extract_window
    from memory_pipelines.core.window_turn import WindowTurn

    said = datetime(2026, 3, 2, 9, tzinfo=UTC)
    window = [
        WindowTurn(1, "user", "Ola", "Piano exam is on the 12th.", said),
        WindowTurn(2, "user", "Ines", "Good luck!", said),
        WindowTurn(
            3, "user", "Ola", "Oh wait, the 21st, not the 12th. Just looked at the letter.", said
        ),
    ]
    texts = [c["context"] for c in extract_window(window, pronoun_of=lambda name: "she")]
    assert any("21st" in t for t in texts), texts
    assert not any("letter" in t for t in texts), texts


def test_an_answer_beside_a_correction_is_kept_with_its_question() -> None:
    """ "Boosters in September. Oh, and it's Dr. Mbatha, not Mbeki": the answer was joined to the
    correction after it as what its "it's" points to, and went with it."""
    from datetime import UTC, datetime

    from memory_pipelines.core.extract import extract_window
    from memory_pipelines.core.window_turn import WindowTurn

    said = datetime(2026, 3, 2, 9, tzinfo=UTC)
    window = [
        WindowTurn(1, "user", "Ola", "My physio is Sam Reyes at the Northgate clinic.", said),
        WindowTurn(2, "assistant", "Agent", "Noted. When is your next session?", said),
        WindowTurn(3, "user", "Ola", "Thursday at nine. Oh, and it's Sam Reid, not Reyes.", said),
    ]
    texts = [c["context"] for c in extract_window(window, pronoun_of=lambda name: "she")]
    assert any("Thursday at nine" in t for t in texts), texts
    assert any("Reid" in t and "Reyes" not in t for t in texts), texts


def test_a_correction_in_one_persons_chat_replaces_nothing_of_anothers(memory: Memory) -> None:
    """The judge reads a correction as said, the old value named (metadata.judged_as): that
    reading must still see only the speaker's own records. Ana's "Ghent" stays current when
    Ben, in his own chat, puts a "Ghent" of his right."""
    memory.add_person("ana")
    memory.add_person("ben")
    memory.write_turns(
        "ana-dm",
        [
            {"speaker": "Ana", "text": "My October conference is in Ghent."},
            {"role": "assistant", "speaker": "assistant", "text": "Noted."},
        ],
        person="ana",
    )
    memory.write_turns(
        "ben-dm",
        [
            {"speaker": "Ben", "text": "My October conference is in Ghent."},
            {"role": "assistant", "speaker": "assistant", "text": "Noted."},
            {"speaker": "Ben", "text": "Hmm, actually it's Bruges, not Ghent."},
        ],
        person="ben",
    )
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    anas = [i.context for i in memory.items(reader="ana")]
    assert any("Ghent" in c for c in anas) and not any("Bruges" in c for c in anas), anas
    bens = [i.context for i in memory.items(reader="ben")]
    assert any("Bruges" in c for c in bens) and not any("Ghent" in c for c in bens), bens


def test_a_name_of_more_words_puts_right_the_whole_name_said_before() -> None:
    """ "sorry, I meant the Bramwell Theatre, not Lindqvist" (extraction_w) took "Theatre" for
    the new value, as many words as the old, and the sentence it puts right kept "Lindqvist
    Hall"; the new name is all its capitalised words, and it replaces the old one said whole."""
    fix = correction("sorry, I meant the Bramwell Theatre, not Lindqvist.")
    assert fix is not None and (fix.new, fix.old, fix.bare) == (
        "Bramwell Theatre",
        "Lindqvist",
        True,
    )
    said = ["Noor's piano recital is on May 9 at the Lindqvist Hall."]
    assert apply_to_earlier(fix, said) == (
        0,
        "Noor's piano recital is on May 9 at the Bramwell Theatre, not Lindqvist.",
    )
    # the sentence's first word is no part of a name ("Sorry Anna, not Maria")
    assert (correction("Sorry Anna, not Maria") or fix).new != "Sorry Anna"


def test_a_value_put_right_now_and_announced_as_an_update() -> None:
    """ "ok update, the kids overruled me, she's Nutmeg now, not Pepper." (extraction_x): the
    new value may stand before "now" or "instead", and after "ok" news announced as an update
    is read for what follows (the policy dropped the whole as an acknowledgement)."""
    from memory_pipelines.core.policy import judge_turn
    from memory_pipelines.core.sentence_kinds import sentence_kind

    said = "ok update, the kids overruled me, she's Nutmeg now, not Pepper."
    fix = correction(said)
    assert fix is not None and (fix.new, fix.old) == ("Nutmeg", "Pepper")
    moved = correction("The class is on Tuesday instead, not Monday.")
    assert moved is not None and (moved.new, moved.old) == ("Tuesday", "Monday")
    assert sentence_kind(said, "user") == "fact"
    assert judge_turn("ok update: I'll send the deck by Friday").category == "commitment"
    # an update of nothing stays small talk, and a word before "not" is no new value
    assert not judge_turn("ok update, nothing much.").save
    assert correction("We go there often now, not as before.") is None


def test_make_that_is_a_cue_of_a_bare_correction() -> None:
    """ "actually make that thursday, not tuesday, the supplier ..." (extraction_x) moves the
    due day of the promise said before: "make that" says nothing of its own, so the
    correction is bare and puts right the sentence that said Tuesday."""
    fix = correction("actually make that thursday, not tuesday, the supplier is late")
    assert fix is not None and (fix.new, fix.old, fix.bare) == ("thursday", "tuesday", True)
    said = ["yep I'll have the full quote to you by tuesday"]
    assert apply_to_earlier(fix, said) == (
        0,
        "yep I'll have the full quote to you by thursday, not tuesday",
    )


def test_a_value_said_instead_puts_right_the_one_said_before() -> None:
    """ "scratch that, ... sunday at 6 instead, same deal" (extraction_x): a value said with
    "instead" is the new one, and it puts right the sentence that said another of its kind;
    "instead" beside no number or date ("We went to Rome instead") corrects nothing."""
    from memory_pipelines.core.restated import restated

    assert restated("sunday at 6 instead, same deal") == ("sunday at 6", ["sunday", "6"])
    assert restated("It starts at 7 instead") == ("It starts at 7", ["7"])
    assert restated("We went to Rome instead.") is None
    assert restated("I had tea instead of coffee on Monday") is None


def test_a_recap_of_the_conversation_is_not_extracted() -> None:
    """ "Today we had a long session about my family, work and plans" became the item "Today
    ... Ana and others had a long session about her family, her work and her plans" (a spec
    audit): what a conversation was about is the history's, never a memory item; a fact said
    beside it is kept."""
    from datetime import UTC, datetime

    from memory_pipelines.core.extract import extract_window
    from memory_pipelines.core.window_turn import WindowTurn

    said = datetime(2024, 6, 1, 18, tzinfo=UTC)
    window = [
        WindowTurn(
            1,
            "user",
            "Ana",
            "Today we had a long session about my family, my work and my plans. "
            "My brother Luis is moving to Valencia in August.",
            said,
        ),
    ]
    texts = [c["context"] for c in extract_window(window, pronoun_of=lambda name: "she")]
    assert any("Valencia" in t for t in texts), texts
    assert not any("session" in t for t in texts), texts


def test_an_answer_that_answers_nothing_is_not_kept_with_its_question() -> None:
    """'Asked "What's the HERON-2 budget?", Assistant said: "I don't have information about
    that."' was stored as a fact (a spec audit); an answer that gives something still is."""
    from datetime import UTC, datetime

    from memory_pipelines.core.extract import extract_window
    from memory_pipelines.core.window_turn import WindowTurn

    said = datetime(2024, 6, 1, 18, tzinfo=UTC)
    for reply, kept in [
        ("I don't have information about that.", False),
        ("No idea, sorry.", False),
        ("About 40k for the year.", True),
        ("I don't know exactly, around 40k.", True),  # goes on to answer (a review)
    ]:
        window = [
            WindowTurn(1, "user", "Ana", "What's the HERON-2 budget?", said),
            WindowTurn(2, "assistant", "Assistant", reply, said),
        ]
        texts = [c["context"] for c in extract_window(window, pronoun_of=lambda name: "she")]
        assert any("HERON-2" in t for t in texts) == kept, (reply, texts)
