"""Sentence vectors from the turn's own embedding pass, stored at ingest, used by extraction."""

import numpy as np
import pytest

from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.turns import embed_turns, embedding_text
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.local import LocalBackend

TURNS = [
    ("Caroline", "I adopted a rescue dog named Oscar last week. The forecast says rain."),
    ("Melanie", "I ran a charity race for mental health on Saturday."),
]


def test_one_pass_gives_the_turn_vector_and_a_vector_per_sentence(embedder: Embedder) -> None:
    vecs, sentences = embed_turns(embedder, TURNS)
    direct = embedder.embed([embedding_text(s, t) for s, t in TURNS])
    assert np.allclose(vecs, direct, atol=1e-4)  # the same vectors embed() gives
    text = TURNS[0][1]
    spans = [text[a:z] for _, a, z, _ in sentences[0]]
    assert spans == ["I adopted a rescue dog named Oscar last week.", "The forecast says rain."]
    dog, rain = sentences[0][0][3], sentences[0][1][3]
    dog_direct, rain_direct = embedder.embed(
        [
            "Caroline: I adopted a rescue dog named Oscar last week.",
            "Caroline: The forecast says rain.",
        ]
    )
    # Each sentence's vector is about that sentence, not the rest of the turn.
    assert float(dog @ dog_direct) > float(dog @ rain_direct) + 0.1
    assert float(rain @ rain_direct) > float(rain @ dog_direct) + 0.1
    # ... and closer to it than the whole turn's vector is.
    assert float(dog @ dog_direct) > float(vecs[0] @ dog_direct)
    assert float(rain @ rain_direct) > float(vecs[0] @ rain_direct)
    assert float(np.linalg.norm(dog)) == pytest.approx(1.0, abs=1e-5)


def test_extraction_reuses_the_stored_sentence_vectors(memory: Memory, embedder: Embedder) -> None:
    memory.write_turns("c1", [{"speaker": s, "text": t} for s, t in TURNS])
    with memory.db.connection() as conn:
        stored = conn.execute(
            "SELECT count(*) AS n FROM turn_sentences JOIN turns USING (turn_id)"
            " WHERE store_id = %s",
            (memory.store_id,),
        ).fetchone()
    assert stored["n"] == 3
    models = Models(LocalBackend(embedder))
    counts = run_extraction(memory.db, memory.store_id, models, embedder, run_id="t")
    assert counts["written"] == 2
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT i.embedding, s.embedding AS sentence FROM agent_memory_items i"
            " JOIN turns t ON t.chat_id = i.chat_id AND t.seq = i.from_seq"
            " JOIN turn_sentences s ON s.turn_id = t.turn_id AND s.ord = 0"
            " WHERE i.store_id = %s AND i.context LIKE 'Caroline adopted a rescue dog%%'",
            (memory.store_id,),
        ).fetchall()
    assert len(rows) == 1
    # The item carries its sentence's vector: nothing was embedded a second time.
    assert np.allclose(rows[0]["embedding"].to_numpy(), rows[0]["sentence"].to_numpy(), atol=1e-6)
