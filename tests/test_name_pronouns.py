"""A speaker's pronoun from counts of the people who bear the name (models/name_pronouns.py),
and what the local extractor writes with it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.extract import WindowTurn
from memory_pipelines.models import name_pronouns
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend


def test_a_name_borne_by_one_gender_gets_its_pronoun_and_a_shared_one_stays_neutral(
    tmp_path: Path,
) -> None:
    assert name_pronouns.pronoun_for("Niamh", cache=tmp_path) == "she"
    assert name_pronouns.pronoun_for("Kwabena", cache=tmp_path) == "he"
    assert name_pronouns.pronoun_for("jasper", cache=tmp_path) == "he"  # any case
    assert name_pronouns.pronoun_for("Siobhán", cache=tmp_path) == "she"  # accents aside
    assert name_pronouns.pronoun_for("Niamh O'Brien", cache=tmp_path) == "she"  # first word
    # borne by men and women alike: no guess
    for shared in ("Sam", "Alex", "Taylor", "Wren"):
        assert name_pronouns.pronoun_for(shared, cache=tmp_path) == "they", shared
    # a name the data does not hold: the caller decides
    assert name_pronouns.pronoun_for("Zzyzx", cache=tmp_path) is None
    assert name_pronouns.pronoun_for("  ", cache=tmp_path) is None


def test_the_table_is_read_from_its_cache_file_once_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert name_pronouns.pronoun_for("Niamh", cache=tmp_path) == "she"
    [written] = tmp_path.glob("name-pronouns-*.tsv")
    assert "niamh\tf\n" in written.read_text("utf-8")
    assert not list(tmp_path.glob(".*.tmp"))  # written whole, then renamed
    # A new process reads the file, not the package's 22 MB table.
    monkeypatch.setattr(name_pronouns, "_tables", {})

    def unread() -> dict[str, str]:
        raise AssertionError("the package's table was read again")

    monkeypatch.setattr(name_pronouns, "_from_package", unread)
    assert name_pronouns.pronoun_for("Kwabena", cache=tmp_path) == "he"


def test_an_unwritable_cache_still_gives_pronouns(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert name_pronouns.pronoun_for("Niamh", cache=blocked / "models") == "she"


def test_the_local_extractor_writes_the_pronoun_of_the_speakers_name(
    embedder: Embedder,
) -> None:
    backend = LocalBackend(embedder)
    # The name's embedding alone had read Niamh as "he" and Kwabena as "she".
    assert backend.pronoun_of("Niamh") == "she"
    assert backend.pronoun_of("Kwabena") == "he"
    # A name the data does not hold is still read by its embedding.
    assert backend.pronoun_of("Zzyzx") in {"she", "he", "they"}
    said = "I taught myself the fiddle from my uncle's old tapes, so my bowing is my own."
    turn = WindowTurn(1, "user", "Niamh", said, datetime(2024, 3, 1, 9, tzinfo=UTC))
    call = ModelCall("generate", "extract", "local", LocalBackend.model)
    texts = [c["context"] for c in backend.extract([turn], "", ("fact",), call)]
    assert any("Niamh taught herself the fiddle" in t for t in texts), texts
    assert not any("themself" in t or "myself" in t for t in texts), texts


def test_a_speaker_named_by_a_role_is_they(embedder: Embedder) -> None:
    """The speaker "User" was read by its embedding as "he", so every user of a chat with the
    assistant was written "he" ("User said he was allergic ...")."""
    backend = LocalBackend(embedder)
    assert [backend.pronoun_of(n) for n in ("User", "Assistant", "customer")] == ["they"] * 3
    said = "I promised my landlord I'd post the lease back by the 1st"
    turn = WindowTurn(1, "user", "User", said, datetime(2024, 3, 1, 9, tzinfo=UTC))
    call = ModelCall("generate", "extract", "local", LocalBackend.model)
    texts = [c["context"] for c in backend.extract([turn], "", (), call)]
    assert texts == ["User promised their landlord they would post the lease back by the 1st"]
