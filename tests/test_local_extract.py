"""The local backend's extraction over a window: what it embeds, and that it decides as the
rules do with every text embedded alone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from memory_pipelines.core.calls import ModelCall
from memory_pipelines.core.extract import WindowTurn, extract_window
from memory_pipelines.core.sentence_kinds import sentence_spans
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
CHAT = [
    ("user", "Ana", "We picked Postgres for the importer. It is simpler to run than Kafka."),
    ("assistant", "", "Noted. Postgres for the importer, since it is simpler to run."),
    ("user", "Ana", "Also, my daughter is allergic to peanuts. She carries an EpiPen."),
    ("assistant", "", "Got it: a peanut allergy, and she carries an EpiPen. Anything else?"),
    ("user", "Ana", "We picked Postgres for the importer, as I said. It runs on one box."),
    ("user", "Ben", "The garden looked lovely this spring. The roses came out early."),
    ("user", "Ana", "Yes, the roses came out early and the garden looked lovely."),
    ("user", "Ben", "I went hiking with my brother last weekend. The views were stunning."),
    ("user", "Ana", "Hiking with your brother sounds fun! The views must have been stunning."),
    ("user", "Ana", "I'll send you the schema by Friday. The team meets on Mondays."),
]


class Counting:
    """The real embedder, its embed calls recorded."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        self.calls.append(list(texts))
        return self._embedder.embed(texts, batch_size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)


def _window(embedder: Embedder, with_sentences: bool = False) -> list[WindowTurn]:
    """The chat's turns as extraction reads them: their stored vectors and, as ingest stores
    them, their sentences' (late-chunked: store/turns.py, store/extraction.window_turns)."""
    texts = [text for _, _, text in CHAT]
    spans = [sentence_spans(t) for t in texts]
    vecs, parts = embedder.embed_with_parts(texts, spans)
    return [
        WindowTurn(
            i + 1,
            role,
            speaker,
            text,
            T0 + timedelta(minutes=i),
            vec,
            {text[a:z]: v for (a, z), v in zip(span, part, strict=True)} if with_sentences else {},
        )  # fmt: skip
        for i, ((role, speaker, text), vec, span, part) in enumerate(
            zip(CHAT, vecs, spans, parts, strict=True)
        )
    ]


def _extract(embedder: Embedder, window: list[WindowTurn]) -> tuple[list[str], Counting]:
    counting = Counting(embedder)
    call = ModelCall("generate", "extract", "local", "rules")
    got = LocalBackend(counting).extract(window, "", [], call)  # type: ignore[arg-type]
    return [c["context"] for c in got], counting


def test_a_windows_sentences_are_embedded_in_one_pass_and_decide_as_alone(
    embedder: Embedder,
) -> None:
    """The save policy compares each turn with the sentences of the turns before it. They are
    embedded once for the window, in one call, and the candidates are those of the rules with
    every text embedded alone, call by call (as before)."""
    window = _window(embedder)
    got, counting = _extract(embedder, window)

    compared: list[str] = []

    def alone(text: str, others: Sequence[str]) -> list[float]:
        compared.extend(others)
        vecs = np.stack([embedder.embed([t.strip()])[0] for t in (text, *others)])
        return [float(v) for v in vecs[1:] @ vecs[0]]

    local = LocalBackend(embedder)
    expected = extract_window(window, similarity=alone, pronoun_of=local.pronoun_of)
    assert got == [c["context"] for c in expected]
    assert any("peanut" in c for c in got)
    assert compared  # the policy did compare turns with earlier sentences
    first, *rest = counting.calls
    stored = {text for _, _, text in CHAT}  # a turn's own vector is read, not embedded
    assert {t.strip() for t in compared} <= set(first) | stored  # embedded in the first call,
    assert not any(set(later) & set(first) for later in rest)  # and never again
    assert len(first) == len(set(first))  # each once
    # no later call: a speaker's pronoun comes from the counts of a name's bearers
    # (models/name_pronouns.py), which hold Ana and Ben, so no name is embedded
    assert rest == []


def test_stored_sentence_vectors_are_read_and_nothing_is_embedded_again(
    embedder: Embedder,
) -> None:
    """Ingest stores each sentence's vector (late chunking); extraction reads them: no
    sentence is embedded again, and this chat gives the same candidates as with every
    sentence embedded alone."""
    alone, _ = _extract(embedder, _window(embedder))
    stored, counting = _extract(embedder, _window(embedder, with_sentences=True))
    assert stored == alone
    assert counting.calls == []  # and no pronoun: the counts of bearers hold Ana and Ben
