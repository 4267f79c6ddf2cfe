"""A day of the month is put right with its month on one side only (core/corrections.py).

Every case is written for this file (none is taken from a case set).
"""

from __future__ import annotations

from memory_pipelines.core.corrections import correction
from memory_pipelines.models.embedder import Embedder
from tests.judge_helpers import judge


def test_a_day_of_the_month_is_put_right_with_its_month_on_one_side(embedder: Embedder) -> None:
    fix = correction("Pay the council tax by 2 March, not the 20th, the letter was clear")
    assert fix is not None and (fix.new, fix.old) == ("2 March", "20th")
    d = judge(
        embedder,
        "Pay the council tax by 2 March, not the 20th, the letter was clear",
        ["Council tax payment due 20 March", "Water bill is paid by direct debit"],
    )
    assert (d.action, d.target) == ("supersede", 0), d.reason
