"""An item that points back to what its speaker told a turn before ("It reminds me why I love
being a mom", after the museum trip) is said across both turns: its provenance starts there,
and a window never claims a turn of the window before it (real Postgres, local models)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.extract import WindowTurn, extract_window

SAID = datetime(2023, 7, 3, 13, 0, tzinfo=UTC)
TURNS = [
    ("Melanie", "We took the kids to the dinosaur museum last weekend."),
    ("Caroline", "Wow! Did they like it?"),
    ("Melanie", "Yeah! It reminds me why I love being a mom."),
]


def _window(turns: list[tuple[str, str]]) -> list[WindowTurn]:
    return [WindowTurn(i + 1, "user", s, t, SAID) for i, (s, t) in enumerate(turns)]


def test_a_sentence_that_points_back_starts_at_the_speakers_turn_before() -> None:
    by_text = {c["context"]: c for c in extract_window(_window(TURNS), pronoun_of=lambda _: "she")}
    point = by_text["It reminds Melanie why she loves being a mom."]
    assert (point["from_seq"], point["to_seq"]) == (1, 3)
    (trip,) = [c for c in by_text.values() if "museum" in c["context"]]
    assert (trip["from_seq"], trip["to_seq"]) == (1, 1)


def test_no_pointing_back_when_the_referent_may_be_in_the_same_turn_or_is_a_dummy_it() -> None:
    later = [*TURNS[:2], ("Melanie", "The bones were huge. It reminds me why I love being a mom.")]
    dummy = [*TURNS[:2], ("Melanie", "It's great to see the kids learn about dinosaurs and bones.")]
    other = [TURNS[0], ("Melanie", "It reminds me why I love being a mom.")]  # nobody between
    for turns in (later, dummy, other):
        cands = extract_window(_window(turns), pronoun_of=lambda _: "she")
        assert all(c["from_seq"] == c["to_seq"] for c in cands), turns


def _write(memory: Memory, turns: list[tuple[str, str]]) -> None:
    memory.write_turns(
        "museum",
        [
            {"role": "user", "speaker": s, "text": t, "created_at": SAID + timedelta(minutes=i)}
            for i, (s, t) in enumerate(turns)
        ],
    )


def test_the_span_is_stored_and_clipped_to_its_window(memory: Memory) -> None:
    memory.configure(extraction={"batch_size": 2, "quiet_minutes": 0})
    _write(memory, [*TURNS, ("Caroline", "That's lovely!")])
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t")
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT context, from_seq, to_seq FROM agent_memory_items WHERE store_id = %s",
            (memory.store_id,),
        ).fetchall()
    spans = {r["context"]: (r["from_seq"], r["to_seq"]) for r in rows}
    # turn 3 is in the second window (3-4); turn 1 only its context: the span starts at 3
    assert spans["It reminds Melanie why she loves being a mom."] == (3, 3)
    assert any("museum" in c and s == (1, 1) for c, s in spans.items()), spans


def test_the_span_is_stored_across_both_turns_in_one_window(memory: Memory) -> None:
    _write(memory, TURNS)
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t")
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT from_seq, to_seq FROM agent_memory_items WHERE store_id = %s"
            " AND context LIKE 'It reminds Melanie%%'",
            (memory.store_id,),
        ).fetchone()
    assert (row["from_seq"], row["to_seq"]) == (1, 3)


def test_a_fix_for_the_problem_just_told_is_kept_and_starts_at_the_problem() -> None:
    chat = [
        WindowTurn(1, "user", "Ben", "Our nightly export times out after ten minutes.", SAID),
        WindowTurn(
            2,
            "assistant",
            "Agent",
            "Raising the batch size to 5000 fixes that; I'll note it.",
            SAID,
        ),
    ]
    by_text = {c["context"]: c for c in extract_window(chat, pronoun_of=lambda _: "he")}
    # "Our <thing> ..." is about the speaker's own thing
    assert by_text["Ben's nightly export times out after ten minutes."]["from_seq"] == 1
    fix = by_text["Raising the batch size to 5000 fixes that."]
    assert (fix["from_seq"], fix["to_seq"]) == (1, 2)
    # between people "fixed it for me" is the speaker's own story: no problem of the other's
    people = [
        WindowTurn(1, "user", "Ana", "My back was killing me all week.", SAID),
        WindowTurn(2, "user", "Jo", "A long walk in the park fixed it for me.", SAID),
    ]
    assert all(c["from_seq"] == c["to_seq"] for c in extract_window(people))


def test_she_or_he_answering_a_question_about_someone_is_that_one() -> None:
    """ "How old is Pepper now?" - "She's a border collie, she'll be four in December" was kept
    as "She's a border collie", found by no search for Pepper (the recall probe)."""
    from memory_pipelines.core.referents import who_was_asked_about

    at = datetime(2026, 11, 2, tzinfo=UTC)
    turns = [
        WindowTurn(1, "user", "Grace", "How old is Pepper now?", at),
        WindowTurn(2, "user", "Luis", "She's a border collie, she'll be four in December.", at),
    ]
    [kept] = extract_window(turns, pronoun_of=lambda _: "they")
    # led by whose words they are: the fact names Pepper, not Luis (see test_extract_attributed)
    assert kept["context"].startswith("Luis: Pepper's a border collie"), kept
    assert kept["from_seq"] == 1  # the question is part of what it says
    asked = "How is Pepper doing?"
    assert who_was_asked_about("She loves it.", asked, ("Luis", "Grace")) == "Pepper loves it."
    # the speakers, two names, a name of the other gender, or no pronoun: left as said
    assert who_was_asked_about("She's fine.", "How is Grace?", ("Luis", "Grace")) == "She's fine."
    two = "Did Pepper meet Biscuit?"
    assert who_was_asked_about("She did.", two, ("Luis", "Grace")) == "She did."
    male = who_was_asked_about("She's fine.", asked, (), pronoun_of=lambda _: "he")
    assert male == "She's fine."
    assert who_was_asked_about("Shelly's fine.", asked, ()) == "Shelly's fine."


def test_a_promise_to_bring_it_back_names_the_thing_the_question_asked_about() -> None:
    turns = [
        ("Lior", "hey, did you ever find my good umbrella after the wedding?"),
        ("Noa", "Yes! It was in the car all along. I'll bring it back to you on Thursday."),
    ]
    cands = extract_window(_window(turns), pronoun_of=lambda _: "she")
    [promised] = [c for c in cands if c["category"] == "commitment"]
    # "Noa will bring it back to Lior" was a promise of nothing anyone could find again
    assert "Lior's good umbrella" in promised["context"], promised["context"]
    assert promised["owed_to"] == "Lior"


def test_returning_the_listeners_thing_is_a_promise_to_them_with_its_day() -> None:
    turns = [
        ("Ines", "Noa my ladder's still in your shed btw"),
        ("Noa", "oops sorry!! I'll drop it off Saturday morning"),
    ]
    cands = extract_window(_window(turns), pronoun_of=lambda _: "she")  # said on a Monday
    [promised] = [c for c in cands if c["category"] == "commitment"]
    # "I'll drop it off" named no one it was owed to, so it was kept as a plan of Noa's own
    assert "Ines's ladder" in promised["context"], promised["context"]
    assert promised["owed_to"] == "Ines"
    assert promised["due_at"].startswith("2023-07-08")


def test_he_or_she_in_an_answer_is_the_one_person_the_question_asked_about() -> None:
    """The answer's "and he's ..." names nobody by itself; the question before named Jarek, so
    the diet said of him is kept as his, not dropped as a sentence about nobody."""
    asked = [
        ("Marit", "we're cooking saturday, anything I should know for Jarek?"),
        ("Lotte", "get the big pan. and he's vegan these days"),
    ]
    got = [c["context"] for c in extract_window(_window(asked), pronoun_of=lambda _: "he")]
    assert any("Jarek" in c and "vegan" in c for c in got), got
    # a place asked about is nobody "she" may be
    place = [
        ("Marit", "How was the trip to Lisbon?"),
        ("Lotte", "Great. She loved the trams and the pastries."),
    ]
    got = [c["context"] for c in extract_window(_window(place), pronoun_of=lambda _: "they")]
    assert not any("Lisbon loved" in c for c in got), got
    # two people asked about: who "he" is stays unsaid, and nothing is kept about nobody
    two = [(asked[0][0], "anything I should know for Jarek and Piet?"), asked[1]]
    got = [c["context"] for c in extract_window(_window(two), pronoun_of=lambda _: "he")]
    assert not any("vegan" in c for c in got), got


def test_a_named_persons_way_of_eating_is_a_lasting_preference_a_dishes_is_not() -> None:
    from memory_pipelines.core.sentence_kinds import sentence_kind

    for said in ("btw Jarek is vegan", "And she's strictly vegetarian now", "so Tove's teetotal"):
        assert sentence_kind(said, "user") == "stable_preference", said
    # a dish, or a word that opens the sentence and may be one
    for said in ("The curry is vegan", "It's vegetarian", "Is Jarek vegan?", "Dinner's vegan"):
        assert sentence_kind(said, "user") != "stable_preference", said
    assert sentence_kind("I baked cookies and they're vegan", "user") != "stable_preference"


def test_a_clause_of_time_alone_is_kept_with_the_question_it_answers() -> None:
    asked = [
        ("Ruth", "love the glaze! how long have you been doing pottery?"),
        ("Ilse", "Since I retired in 2019. My studio is the old garage in Hove."),
    ]
    got = [c["context"] for c in extract_window(_window(asked), pronoun_of=lambda _: "she")]
    assert any("doing pottery" in c and "2019" in c for c in got), got
    # a clause with its main clause is a sentence of its own, comma or none
    for whole in (
        "Since I retired in 2019, I've been doing pottery every day.",
        "Since March I've been doing pottery every day.",
    ):
        turns = [asked[0], ("Ilse", whole)]
        got = [c["context"] for c in extract_window(_window(turns), pronoun_of=lambda _: "she")]
        assert not any(c.startswith("Asked") for c in got), got
