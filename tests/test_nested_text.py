"""Text that nests what the rules peel off: a report within a report, a reaction or a label
before the rest, thousands of times in one sentence. Found by a bad-input audit: one turn of
"Ana said that Ben told her that ..." (9,620 characters, well within a turn's 100,000) made
sentence_kind recurse once per frame until Python's recursion limit, so the extraction pass
failed at its window on every run and no other conversation of the store was extracted
again; the same text as auto-recall's user_message answered 500."""

from __future__ import annotations

import httpx
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.sentence_kinds import sentence_kind
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend
from memory_pipelines.store.db import Database
from tests.api_server import tenant

NESTED = "Ana said that Ben told her that " * 300 + "we moved the launch."


@pytest.mark.parametrize(
    "lead", ["Ana said that Ben told her that ", "You're right, ", "Update: ", "Hi! "]
)
def test_thousands_of_lead_ins_are_read_as_the_short_ones_are(lead: str) -> None:
    """Past MAX_FRAMES lead-ins the rest is read as it stands: the kind the few give, or none
    (plain, or ack after reactions), never a crash."""
    few = sentence_kind(lead * 2 + "I moved to Porto last month.", "user")
    many = sentence_kind(lead * 3000 + "I moved to Porto last month.", "user")
    assert many in (few, "plain", "ack")


def test_one_turn_of_nested_reports_does_not_stop_extraction_of_the_store(
    db: Database, embedder: Embedder
) -> None:
    t = tenant(db)
    m = Memory(t.store, db=db, embedder=embedder)
    m.write_turns(
        "c1",
        [
            {"text": "Quick update.", "speaker": "Ana"},
            {"text": NESTED, "speaker": "Ana"},
            {"text": "Noted.", "role": "assistant"},
        ],
    )
    m.write_turns(
        "c2",
        [
            {"text": "I moved to Porto last month, I live there now.", "speaker": "Ben"},
            {"text": "Congratulations on the move!", "role": "assistant"},
        ],
    )
    run_extraction(db, t.store, Models(LocalBackend(embedder)), embedder, "run-1")
    assert any("Porto" in i.context for i in m.items()), [i.context for i in m.items()]


def test_auto_recall_of_a_nested_report_answers(db: Database, client: httpx.Client) -> None:
    t = tenant(db)
    Memory(t.store, db=db).write_turn("c1", "We moved the launch to Friday.", speaker="Ana")
    res = client.post(
        f"/v1/stores/{t.store}/autorecall",
        json={"chat": "c1", "user_message": NESTED},
        headers=t.auth(),
    )
    assert res.status_code == 200, res.text
