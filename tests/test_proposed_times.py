"""A new time asked for and agreed to (core/proposed_times.py): the one who set a time asks
to move it ("can we say Friday morning?") and the other agrees, so the promise is due then and
the agreement is no memory of its own. Found by a new user's probe (a draft promised "by wed
eod", moved by "can we say fri morning?" / "fine, fri morning works", stayed due Wednesday
beside a quote of the agreement); every case here is written for this file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.proposed_times import agreed_time
from memory_pipelines.core.window_turn import WindowTurn

SAID = datetime(2026, 5, 4, 9, tzinfo=UTC)  # a Monday


def _window(*turns: tuple[str, str]) -> list[WindowTurn]:
    return [
        WindowTurn(n, "user", who, text, SAID + timedelta(minutes=n))
        for n, (who, text) in enumerate(turns, 1)
    ]


def test_a_time_asked_for_counts_once_the_other_agrees() -> None:
    asked = ("Noor", "the printer's down. could I make it thursday afternoon instead?")
    assert agreed_time(_window(asked, ("Jakob", "sure, no rush")), 1) == "thursday afternoon"
    # refused, or agreed by the asker themselves, or never asked: nothing agreed
    assert agreed_time(_window(asked, ("Jakob", "no, I need it wednesday")), 1) is None
    assert agreed_time(_window(asked, ("Noor", "ok")), 1) is None
    told = ("Noor", "I'll have it to you by thursday")
    assert agreed_time(_window(told, ("Jakob", "ok")), 1) is None


def test_the_promise_is_due_at_the_time_agreed(memory: Memory) -> None:
    said = [
        ("Noor", "I'll send you the lab results by Tuesday."),
        ("Jakob", "great, thanks"),
        ("Noor", "hmm the centrifuge broke. can we say Thursday?"),
        ("Jakob", "ok, Thursday works"),
    ]
    memory.write_turns(
        "lab-dm",
        [
            {"speaker": who, "text": text, "created_at": SAID + timedelta(minutes=n)}
            for n, (who, text) in enumerate(said)
        ],
    )
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    open_ = [c for c in memory.commitments(status="open") if "lab results" in c.context]
    assert len(open_) == 1, [c.context for c in memory.items()]
    assert open_[0].owed_to == "Jakob"
    due = open_[0].due_at
    assert due is not None and due.date().isoformat() == "2026-05-07", due  # that Thursday
    assert not any("works" in i.context for i in memory.items()), [
        i.context for i in memory.items()
    ]
