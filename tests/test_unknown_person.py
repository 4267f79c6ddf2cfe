"""A person the store does not hold is named as such (field `person`) by every read for a
person, as writes already did: auto-recall, the boot window and commitments read it as
"shared only" and answered without a word (found by a helper probing as a new user; a
wrong-case "Maya" gave "chat 'maya-dm' does not exist"). The store's persons are not listed."""

from __future__ import annotations

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.errors import ValidationError


def _refused(call, field: str = "person") -> str:  # noqa: ANN001
    with pytest.raises(ValidationError) as refused:
        call()
    assert refused.value.field == field, refused.value
    return str(refused.value)


def test_reads_for_a_person_the_store_does_not_hold_are_refused(
    memory: Memory, recall: Recall
) -> None:
    memory.add_person("maya")
    memory.add_person("tom")
    memory.write_turn("maya-dm", "I prefer afternoon meetings now.", person="maya")
    memory.write_turn("family", "Dinner at six on Friday.")
    said = _refused(lambda: autorecall(recall, "maya-dm", "When do I meet?", person="Maya"))
    assert "'Maya' is not a person of store" in said and "tom" not in said
    _refused(lambda: memory.boot_window("family", 500, reader="ghost"))
    _refused(lambda: memory.commitments(person="ghost"))
    # the store's own persons and shared-only reads work as before
    assert autorecall(recall, "maya-dm", "When do I meet?", person="maya").skipped is not None
    assert autorecall(recall, "family", "When is dinner?").skipped is not None
    assert memory.boot_window("family", 500, reader="tom").tokens > 0
    assert memory.commitments(person="tom") == []


def test_a_boot_budget_that_is_not_positive_is_named(memory: Memory, recall: Recall) -> None:
    memory.write_turn("c", "hello")
    for bad in (0, -5, True, "200"):
        said = _refused(
            lambda bad=bad: autorecall(recall, "c", "hi there", boot_budget_tokens=bad),
            "boot_budget_tokens",
        )
        assert "positive integer" in said
