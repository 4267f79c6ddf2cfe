"""The dedup judge reads "moved to 30 June", "changed to Saturdays", "shifted to 9 March" as a
date that moved (judge_cues), not a home move: the stored item holding the old date is replaced
even when it is worded otherwise; "moved to 12 Harbour Road" stays a move of home.

Every case is written for this file (none is taken from a case set). Decisions go through
`decide` with the real embedder.
"""

from __future__ import annotations

import pytest

from memory_pipelines.core.judge_cues import CUE_RES
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def _cues(text: str) -> set[str]:
    return {name for name, rx in CUE_RES if rx.search(text)}


def test_a_move_to_a_time_is_a_date_moved() -> None:
    assert "date moved" in _cues("Dissertation hand-in moved to 3 May 2026")
    assert "date moved" in _cues("Swimming lessons changed to Saturdays")
    assert "date moved" in _cues("Standup changed to 10:15")
    assert "date moved" not in _cues("Moved to 12 Harbour Road, Whitby")
    assert "date moved" not in _cues("Moved to Mayfair last spring")


@pytest.mark.parametrize(
    ("candidate", "existing"),
    [
        (
            "Dissertation hand-in moved to 3 May 2026",
            ["Final project due 20 April 2026", "Supervisor is Dr Hale"],
        ),
        (
            "Kickoff with the client shifted to 9 March",
            ["First client workshop is on 2 March", "Client is a logistics firm in Antwerp"],
        ),
    ],
)
def test_date_moved_replaces_the_stored_date(
    embedder: Embedder, candidate: str, existing: list[str]
) -> None:
    d = judge(embedder, candidate, existing)
    assert (d.action, d.target) == ("supersede", 0), d.reason
