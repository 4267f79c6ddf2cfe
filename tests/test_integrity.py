"""One bad value stops nobody and nothing is half-written: dates a reader could not load,
settings the sensor could not run, a bad line deep in an import, an oversized document, and a
merge that must not lose the candidate's metadata."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.api.ingest import ingest_documents, ingest_file, read_documents
from memory_pipelines.core.inputs import MAX_DOCUMENT_CHARS, MAX_PASSAGES
from memory_pipelines.core.records import parse_time
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import Embedder

YEAR_10000 = "9999-12-31T23:59:59-12:00"


def _turns(memory: Memory) -> int:
    with memory.db.connection() as conn:
        return conn.execute(
            "SELECT count(*) AS n FROM turns WHERE store_id = %s", (memory.store_id,)
        ).fetchone()["n"]


# -- point 7: dates ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        YEAR_10000,
        "0001-01-01T00:00:00+01:00",  # year 0 in UTC
        "0999-12-31",
        "3000-01-01",
        datetime(9999, 12, 31, tzinfo=UTC),
    ],
)
def test_parse_time_refuses_dates_no_reader_can_hold(value: object) -> None:
    with pytest.raises(ValidationError) as err:
        parse_time("created_at", value)
    assert err.value.field == "created_at"
    assert "1000-01-01" in err.value.message and "3000-01-01" in err.value.message


def test_parse_time_keeps_the_range_edges() -> None:
    assert parse_time("at", "1000-01-01") == datetime(1000, 1, 1, tzinfo=UTC)
    assert parse_time("at", "2999-12-31T23:59:59Z") == datetime(
        2999, 12, 31, 23, 59, 59, tzinfo=UTC
    )


def test_a_turn_of_year_10000_is_refused_and_the_store_still_answers(
    memory: Memory, recall: Recall
) -> None:
    memory.write_turn("c", "The deploy window is Tuesday at 10am.", created_at="2024-05-01")
    with pytest.raises(ValidationError) as err:
        memory.write_turn("c", "Later that day.", created_at=YEAR_10000)
    assert err.value.field == "created_at" and "3000-01-01" in str(err.value)
    with pytest.raises(ValidationError, match=r"turns\[1\]\.created_at"):
        memory.write_turns("c", [{"text": "fine"}, {"text": "bad", "created_at": YEAR_10000}])
    assert _turns(memory) == 1  # neither write left a turn
    hits = recall.search("When is the deploy window?")
    assert [h.text for h in hits] == ["The deploy window is Tuesday at 10am."]
    window = memory.boot_window("c", 500)
    assert [r.text for r in window.records] == ["The deploy window is Tuesday at 10am."]
    out = autorecall(recall, "c", "Remind me when the deploy window is?", boot_budget_tokens=1)
    assert "Tuesday at 10am" in out.messages[-1]["content"]
    rows = recall.by_period("2024-01-01", "2024-12-31").records
    assert [r.kind for r in rows] == ["turn"]


# -- point 8: settings ------------------------------------------------------------------------

BAD_SETTINGS = [
    ({"extraction": {"cron": "not a cron"}}, "extraction.cron"),
    ({"extraction": {"cron": "*/5 * * * * *"}}, "extraction.cron"),  # seconds: Dagster has none
    ({"maintenance": {"cron": "0 0 30 2 *"}}, "maintenance.cron"),  # 30 February never comes
    ({"maintenance": {"cron": ""}}, "maintenance.cron"),
    ({"extraction": {"timezone": "Mars/Base"}}, "extraction.timezone"),
    ({"maintenance": {"timezone": ""}}, "maintenance.timezone"),
    ({"maintenance": {"duplicate_threshold": 5}}, "maintenance.duplicate_threshold"),
    ({"maintenance": {"duplicate_threshold": 0.2}}, "maintenance.duplicate_threshold"),
    ({"maintenance": {"archive_below": 1.5}}, "maintenance.archive_below"),
    ({"maintenance": {"archive_idle_days": 0}}, "maintenance.archive_idle_days"),
    ({"maintenance": {"enabled": "yes"}}, "maintenance.enabled"),
    ({"extraction": {"every_minutes": 0}}, "extraction.every_minutes"),
    ({"extraction": {"batch_size": 2.5}}, "extraction.batch_size"),
    ({"extraction": {"batch_size": True}}, "extraction.batch_size"),
    ({"extraction": {"min_messages": 10**9}}, "extraction.min_messages"),
    ({"extraction": {"quiet_minutes": float("inf")}}, "extraction.quiet_minutes"),
    ({"extraction": {"types": []}}, "extraction.types"),
    ({"extraction": {"types": ["Not A Slug"]}}, "extraction.types[0]"),
    ({"extraction": {"keys": "a,b"}}, "extraction.keys"),
    ({"extraction": {"backend": "gpt"}}, "extraction.backend"),
    ({"extraction": {"model": ""}}, "extraction.model"),  # on by default
    ({"extraction": {"instructions": "x\x00"}}, "extraction.instructions"),
    ({"commitments": {"most_carried": -1}}, "commitments.most_carried"),
    ({"save_policy": {"budget_per_turn": 1000}}, "save_policy.budget_per_turn"),
    ({"decay_per_type": {"half_life_days": {"fact": 0}}}, "decay_per_type.half_life_days.fact"),
    ({"decay_per_type": {"half_life_days": {"fact": 1e9}}}, "decay_per_type.half_life_days.fact"),
    ({"search": {"reranker": ["x"]}}, "search.reranker"),
    ({"search": {"knowledge_graph": 0}}, "search.knowledge_graph"),
    ({"extraction": {"colour": "red"}}, "extraction.colour"),
    ({"trust_envelope": 1}, "trust_envelope"),
]


@pytest.mark.parametrize(("cards", "field"), BAD_SETTINGS, ids=[f for _, f in BAD_SETTINGS])
def test_bad_setting_is_named_and_nothing_is_saved(memory: Memory, cards: dict, field: str) -> None:
    before = memory.settings()
    with pytest.raises(ValidationError) as err:
        # a valid card in the same call is not saved either
        memory.configure(**{"search": {"knowledge_graph": False}, **cards})
    assert err.value.field == field, str(err.value)
    assert memory.settings() == before


def test_the_extraction_model_is_required_once_extraction_is_on(memory: Memory) -> None:
    memory.configure(extraction={"enabled": False, "model": ""})  # a card is saved whole
    assert memory.settings().extraction.model == ""
    with pytest.raises(ValidationError) as err:
        memory.configure(extraction={"enabled": True, "model": " "})
    assert err.value.field == "extraction.model"
    assert memory.settings().extraction.enabled is False


def test_good_settings_are_saved(memory: Memory) -> None:
    memory.configure(
        extraction={"cron": "*/15 * * * *", "timezone": "Europe/Paris", "batch_size": 8},
        maintenance={"duplicate_threshold": 0.5, "cron": "@daily", "timezone": "America/New_York"},
        decay_per_type={"half_life_days": {"fact": 10, "insight": 2.5}},
    )
    s = memory.settings()
    assert (s.extraction.cron, s.extraction.timezone, s.extraction.batch_size) == (
        "*/15 * * * *",
        "Europe/Paris",
        8,
    )
    assert s.maintenance.duplicate_threshold == 0.5 and s.maintenance.cron == "@daily"
    assert s.decay_per_type.half_life_days == {"fact": 10.0, "insight": 2.5}


# -- point 9: imports are all or nothing, errors name the file's line -------------------------


def test_jsonl_with_a_bad_line_290_writes_nothing(memory: Memory, tmp_path: Path) -> None:
    lines = [json.dumps({"chat": "c", "text": f"Turn number {i}"}) for i in range(1, 301)]
    lines[289] = json.dumps({"chat": "c", "text": "Hello", "role": "bot"})
    path = tmp_path / "turns.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValidationError) as err:
        ingest_file(memory, path, embed=False)
    assert err.value.field == "line 290: turns.role" and "'bot'" in err.value.message
    assert _turns(memory) == 0
    lines[289] = json.dumps({"chat": "c", "text": "Hello", "role": "assistant"})
    path.write_text("\n".join(lines) + "\n")
    assert ingest_file(memory, path, embed=False).turns_written == 300


def test_a_repeated_external_id_in_a_file_names_both_lines(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    rows = [{"text": "a", "external_id": "m1"}, {"text": "b"}, {"text": "c", "external_id": "m1"}]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    with pytest.raises(ValidationError) as err:
        ingest_file(memory, path, embed=False)
    assert err.value.field == "line 3: turns.external_id" and "line 1" in err.value.message
    assert _turns(memory) == 0


def test_docs_with_a_bad_line_write_nothing(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    docs = [{"id": f"d{i}", "text": f"Document number {i} about invoices."} for i in range(5)]
    docs[3]["created_at"] = YEAR_10000
    path.write_text("\n".join(json.dumps(d) for d in docs))
    with pytest.raises(ValidationError) as err:
        read_documents(path)
    assert err.value.field == "line 4: documents.created_at"
    docs[3]["sent_at"] = docs[3].pop("created_at")
    path.write_text("\n".join(json.dumps(d) for d in docs))
    with pytest.raises(ValidationError, match="line 4: documents.sent_at"):
        read_documents(path, "email")
    del docs[3]["sent_at"]
    path.write_text("\n".join(json.dumps(d) for d in docs))
    assert ingest_documents(memory, read_documents(path)) == 5


def test_a_file_that_is_not_utf8_or_not_readable_is_named(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_bytes(b'{"text": "ok"}\n{"text": "na\xefve"}\n')
    with pytest.raises(ValidationError) as err:
        read_documents(path)
    assert err.value.field == "line 2" and "0xef" in err.value.message
    with pytest.raises(ValidationError) as err:
        read_documents(tmp_path)  # a directory: cannot be read as a file
    assert err.value.field == str(tmp_path)


# -- point 11: documents have a size limit, checked before any work ---------------------------


class CountingEmbedder(Embedder):
    """The real model, counting the texts it is asked to embed."""

    def __init__(self, real: Embedder) -> None:
        self.__dict__.update(real.__dict__)
        self.texts = 0

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        self.texts += len(texts)
        return super().embed(texts, batch_size)


def test_document_size_limits_are_checked_before_embedding(
    memory: Memory, embedder: Embedder
) -> None:
    counting = CountingEmbedder(embedder)
    m = Memory(memory.store_id, db=memory.db, embedder=counting)
    with pytest.raises(ValidationError) as err:
        m.add_document("big", "word " * (MAX_DOCUMENT_CHARS // 5 + 1))
    assert err.value.field == "text" and f"{MAX_DOCUMENT_CHARS}" in err.value.message
    with pytest.raises(ValidationError) as err:  # within the characters, too many passages
        m.add_document("many", "a " * (MAX_DOCUMENT_CHARS // 2 - 10))
    assert err.value.field == "text" and f"{MAX_PASSAGES} passages" in err.value.message
    assert counting.texts == 0
    assert m.add_document("ok", "The office closes at 6pm.").passages == 1
    assert counting.texts == 1


# -- point 12: a merge keeps the candidate's metadata -----------------------------------------


def test_merge_unions_metadata_and_records_what_it_dropped(memory: Memory) -> None:
    first = memory.save_with_dedup(
        {
            "category": "fact",
            "context": "The office closes at 6pm on Fridays",
            "metadata": {"source": "handbook", "page": 4},
        }
    )
    merged = memory.save_with_dedup(
        {
            "category": "fact",
            "context": "The office closes at 6pm on Fridays",
            "metadata": {"source": "email", "ticket": "OPS-12"},
        }
    )
    assert merged.merged_into == first.id, merged
    item = memory.get(first.id)
    assert item.metadata == {"source": "handbook", "page": 4, "ticket": "OPS-12"}
    versions = memory.history(first.id)
    assert versions[-1].change == "merge"
    assert versions[-1].snapshot.dropped == {"metadata": {"source": "email"}}
    assert versions[-1].snapshot.metadata == item.metadata
