"""First names typed in lower case, as chat is ("ugh felix left, my new manager is priya"):
the local extractor gives them back their capital (core/name_case.py, models/person_names.py)
so that the rules and the judge, which know a name by it, read them. Every case is written for
this file; the forms come from probes a new user wrote apart from the code."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.extract import extract_window
from memory_pipelines.core.name_case import as_written_carefully, names_given
from memory_pipelines.core.sentence_forms import without_opener
from memory_pipelines.core.window_turn import WindowTurn
from memory_pipelines.models import person_names
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend


def test_a_first_name_is_one_in_wide_use_that_is_no_english_word(tmp_path: Path) -> None:
    for name in ("felix", "priya", "ingrid", "samira", "luca", "nina"):
        assert person_names.is_first_name(name, cache=tmp_path), name
    # words first, whatever people are called: common words, other forms of one ("miles",
    # "banks"), a British spelling ("favour"), months, a chat word borne by a few ("kinda")
    for word in ("grace", "mark", "will", "hope", "rose", "miles", "banks", "favour", "april",
                 "june", "kinda", "max", "the", "zzyzx"):  # fmt: skip
        assert not person_names.is_first_name(word, cache=tmp_path), word


def test_the_list_is_read_from_its_cache_file_once_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert person_names.is_first_name("priya", cache=tmp_path)
    [written] = tmp_path.glob("first-names-*.tsv")
    table = written.read_text("utf-8")
    assert "priya\t\n" in table and "grace\tword\n" in table and "kinda" not in table
    assert not list(tmp_path.glob(".*.tmp"))  # written whole, then renamed
    monkeypatch.setattr(person_names, "_lists", {})

    def unread() -> list[str]:
        raise AssertionError("the packages' data was read again")

    monkeypatch.setattr(person_names, "_from_packages", unread)
    assert person_names.is_first_name("felix", cache=tmp_path)


def test_only_words_standing_alone_are_capitalised() -> None:
    names = {"felix", "priya", "nina", "aren"}.__contains__
    words = {"promoted", "still"}.__contains__
    assert (
        as_written_carefully("ugh felix left, my new manager is priya", names, words)
        == "ugh Felix left, my new manager is Priya"
    )
    assert as_written_carefully("felix's desk", names, words) == "Felix's desk"
    # an address, a handle, a path, a hyphenated word and a contraction stay as typed
    for typed in ("mail nina.k@mail.com", "ping @nina", "see /home/felix/notes",
                  "the felix-2 build", "they aren't here"):  # fmt: skip
        assert as_written_carefully(typed, names, words) == typed


def test_a_word_shouted_in_capitals_is_lowered_and_an_acronym_is_not() -> None:
    careful = as_written_carefully(
        "got PROMOTED and the insurer STILL hasn't paid, FELIX says ask EMAS",
        person_names.is_first_name,
        person_names.is_english_word,
    )
    assert careful == "got promoted and the insurer still hasn't paid, FELIX says ask EMAS"
    assert person_names.is_english_word("promoted") and person_names.is_english_word("cantering")
    assert not person_names.is_english_word("emas")


def test_a_sigh_run_into_somebody_named_opens_the_news() -> None:
    assert without_opener("ugh Felix left, my new manager is Priya") == (
        "Felix left, my new manager is Priya"
    )
    assert without_opener("hey Felix left the door open") == "Hey Felix left the door open"


def _extract(backend: LocalBackend, *turns: tuple[str, str, str]) -> list[dict[str, object]]:
    said = datetime(2025, 6, 2, 10, tzinfo=UTC)  # a Monday
    window = [WindowTurn(n, role, who, text, said) for n, (who, role, text) in enumerate(turns, 1)]
    return backend.extract(window, "", (), ModelCall("generate", "extract", "local", "rules"))


def test_a_promise_to_somebody_named_in_lower_case_is_owed_to_them(embedder: Embedder) -> None:
    items = _extract(
        LocalBackend(embedder),
        ("Henrik", "user", "can u help me outline the q3 report, i told ingrid i'd have it to "
         "her by thursday"),
    )  # fmt: skip
    [promise] = [c for c in items if c["category"] == "commitment"]
    assert promise["owed_to"] == "Ingrid", promise
    assert "Ingrid" in str(promise["context"]), promise


def test_a_surprised_congratulation_is_nothing_to_keep(embedder: Embedder) -> None:
    items = _extract(
        LocalBackend(embedder),
        ("Malin", "user", "big news, my brother moved to Aldenport"),
        ("Idris", "user", "no way congrats auntie malin!!!"),
    )
    assert not any("congrats" in str(c["context"]).lower() for c in items), items


def test_a_new_manager_typed_in_lower_case_replaces_the_old_one(memory: Memory) -> None:
    """ "ugh felix left, my new manager is priya" read no name: the judge merged it into
    "Nadia's manager is called Felix", so the record's history said the manager had been
    restated, not changed."""
    memory.write_turns(
        "nadia-1",
        [
            {"speaker": "Nadia", "text": "started the new job, data analyst at kestrel"},
            {"role": "assistant", "speaker": "assistant", "text": "Congrats! How is it going?"},
            {"speaker": "Nadia", "text": "good! my manager is called felix"},
        ],
    )
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    memory.write_turns(
        "nadia-2",
        [
            {"speaker": "Nadia", "text": "ugh felix left, my new manager is priya"},
            {"role": "assistant", "speaker": "assistant", "text": "Oh, how is she?"},
            {"speaker": "Nadia", "text": "seems nice so far"},
        ],
    )
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t2")
    current = [i.context for i in memory.items() if "manager" in i.context]
    assert len(current) == 1 and "Priya" in current[0], current
    assert not current[0].lower().startswith("ugh"), current
    old = [i for i in memory.items(state="superseded") if "manager" in i.context]
    assert [i.context for i in old] == ["Nadia's manager is called Felix"], old


def test_a_name_put_right_with_the_old_one_named_is_no_respelling(embedder: Embedder) -> None:
    """ "oh its aviva not admiral" (the insurer): "Aviva", capitalised, was read as a name
    spelled anew, and the only earlier name, the husband's, was "put right" to it."""
    items = _extract(
        LocalBackend(embedder),
        ("Sophie", "user", "me and my husband rhys agreed a £400/month grocery budget"),
        ("Assistant", "assistant", "Sounds sensible. Anything else to track?"),
        ("Sophie", "user", "car insurance renews on the 12th w admiral, £640"),
        ("Sophie", "user", "oh its aviva not admiral, admiral was the old one"),
    )
    texts = [str(c["context"]) for c in items]
    assert any("husband Rhys" in t for t in texts), texts
    assert not any("husband Aviva" in t for t in texts), texts


_women = {"Joyce": "she", "Farida": "she", "Aisha": "she"}


def test_a_home_named_by_whose_it_is_is_no_one_else_she_could_be() -> None:
    """ "my nana Joyce turns 90!! we're doing a party at auntie Farida's" ... "she's diabetic":
    Farida, named once her name had its capital, made "she" unclear; her house is a place."""
    said = datetime(2025, 6, 2, 10, tzinfo=UTC)
    turns = [
        ("my nana Joyce turns 90 on May 3rd!! we're doing a party at auntie Farida's"),
        ("i'm baking the cake. she's diabetic so it has to be low sugar"),
    ]
    window = [WindowTurn(n, "user", "Aisha", t, said) for n, t in enumerate(turns, 1)]
    texts = [
        c["context"] for c in extract_window(window, pronoun_of=lambda n: _women.get(n, "they"))
    ]
    assert any("nana Joyce's diabetic" in text for text in texts), texts


def test_a_name_that_is_a_word_too_is_a_name_where_a_name_is_given() -> None:
    given = person_names.name_lookups()[1]
    said = "my sister grace is visiting, grace loves tea. my son will be 5, my dad bill said so"
    assert names_given(said, given) == {"grace", "bill"}
    assert names_given("the new kitten is called rose", given) == {"rose"}
    # "will" after "my son" is the verb; a word that is no name is no name given
    assert names_given("my son will be 5 and my friend really helped", given) == set()
    careful = as_written_carefully(
        "grace is coming and bringing hope", person_names.is_first_name,
        person_names.is_english_word, {"grace"},
    )  # fmt: skip
    assert careful == "Grace is coming and bringing hope"
    # a name is no plural because the dictionary holds a word inside it ("james": jam + es)
    assert person_names.is_first_name("james") and person_names.is_english_word("dishes")
