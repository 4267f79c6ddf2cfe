"""An offer or plan taken back in a later turn (core/retractions.py): "sorry cant do it after
all" stands for the speaker's own offer before it, so the memory says what holds now and a
promise so taken back is cancelled, not moved nor kept open. Found by a new user's probe (a
chat whose cancelled school run stayed a live memory); every case here is written for this
file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.extract import extract_window
from memory_pipelines.core.retractions import taken_back
from memory_pipelines.core.window_turn import WindowTurn

SAID = datetime(2026, 5, 4, 18, tzinfo=UTC)  # a Monday


def test_the_do_it_taken_back_is_the_speakers_own_offer() -> None:
    said = taken_back(
        "ugh my shift got moved, sorry cant do it after all",
        ["i can drive you to the airport on friday", "what time is the flight?"],
    )
    assert (
        said == "ugh my shift got moved, sorry I can't drive you to the airport on friday after all"
    )
    # the modal of the offer is the one negated; a subject said stays
    said = taken_back("We won't be able to make it anymore.", ["We'll bring the salads."])
    assert said == "We won't bring the salads anymore."
    # nothing taken back: no offer before it, or asked, or no "after all"
    assert taken_back("I can't do it after all.", ["The weather was lovely."]) is None
    assert taken_back("can't do it after all?", ["I can take the early shift."]) is None
    assert taken_back("I can't do it, it's too heavy.", ["I can lift the box."]) is None


def test_an_offer_taken_back_is_no_memory_of_the_offer() -> None:
    window = [
        WindowTurn(1, "user", "Noor", "i can walk the dog for you on wednesday", SAID),
        WindowTurn(2, "user", "Jakob", "amazing thank you", SAID),
        WindowTurn(3, "user", "Noor", "oh no my exam got moved, cant do it after all sorry", SAID),
    ]
    texts = [c["context"] for c in extract_window(window, pronoun_of=lambda name: "she")]
    taken = [t for t in texts if "can't walk the dog" in t]
    assert taken, texts
    assert not any("do it after all" in t for t in texts), texts


def test_a_promise_taken_back_is_cancelled(memory: Memory) -> None:
    memory.write_turns(
        "book-club",
        [
            {
                "role": "user",
                "text": "I'll host the book club at my flat on Saturday.",
                "created_at": SAID,
            },
            {
                "role": "assistant",
                "text": "Lovely, shall I plan snacks?",
                "created_at": SAID + timedelta(minutes=1),
            },
            {
                "role": "user",
                "text": "Actually I can't do it after all, the boiler is out.",
                "created_at": SAID + timedelta(minutes=2),
            },
        ],
    )
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    hosting = [i for i in memory.items() if "host the book club" in i.context]
    promised = [i for i in hosting if i.category == "commitment"]
    assert promised and all(i.status == "cancelled" for i in promised), [
        (i.context, i.status) for i in hosting
    ]
    now = [i for i in hosting if "won't host" in i.context]
    assert now and now[0].category != "commitment", [i.context for i in hosting]
    # the Saturday it will not be hosted on is the one ahead, not the one gone
    assert "9 May 2026" in now[0].context, now[0].context
