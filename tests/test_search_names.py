"""Search embeds the question without the names of its speakers (core/ranking.without_names),
and only speakers of chats the reader may see count (store/entities.speakers_among)."""

from __future__ import annotations

import numpy as np

from memory_pipelines.api import Memory, Recall
from memory_pipelines.core.ranking import without_names
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import entities as entities_db
from memory_pipelines.store.db import Database


def test_names_and_their_possessive_are_taken_out() -> None:
    assert without_names("What do Melanie's kids like?", ["Melanie"]) == "What do kids like?"
    assert without_names("Did Ana meet Bob?", ["Ana", "Bob"]) == "Did meet ?"
    assert without_names("Anabel and Ana", ["Ana"]) == "Anabel and"  # whole words only
    assert without_names("Melanie?", ["Melanie"]) == "Melanie?"  # nothing but a name: kept
    assert without_names("What about Rome?", []) == "What about Rome?"


def test_only_speakers_of_chats_the_reader_sees_count(memory: Memory, db: Database) -> None:
    memory.add_person("ana")
    memory.add_person("bob")
    memory.write_turns("shared", [{"speaker": "Tom", "text": "Rye bread is the best."}])
    memory.write_turns("ana-only", [{"speaker": "Zed", "text": "I bake on Sundays."}], person="ana")
    words = ["What", "Tom", "Zed", "Rye"]
    with db.connection() as conn:
        assert entities_db.speakers_among(conn, memory.store_id, words, None) == ["Tom"]
        assert entities_db.speakers_among(conn, memory.store_id, words, "bob") == ["Tom"]
        assert entities_db.speakers_among(conn, memory.store_id, words, "ana") == ["Tom", "Zed"]
        assert entities_db.speakers_among(conn, memory.store_id, ["zed"], "ana") == ["zed"]
        assert entities_db.speakers_among(conn, "no-such-store", words, "ana") == []


def test_anothers_private_chat_never_changes_what_a_reader_is_answered(
    memory: Memory, recall: Recall
) -> None:
    memory.write_turns(
        "shared",
        [
            {"speaker": "Tom", "text": "Zed told me the bakery sells great rye."},
            {"speaker": "Priya", "text": "Sourdough is my favourite bread."},
            {"speaker": "Tom", "text": "I bake rye bread at weekends."},
        ],
    )
    question = "What did Zed say about bread?"
    memory.add_person("ana")
    memory.add_person("bob")

    def answer(person: str | None) -> list[tuple[str, int, float]]:
        hits = recall.search(question, ["history"], person=person, k=5)
        return [(h.kind, h.id, round(h.score, 6)) for h in hits]

    before = answer("bob")
    memory.write_turns(
        "ana-only", [{"speaker": "Zed", "text": "Bread is overrated."}], person="ana"
    )
    assert answer("bob") == before  # Zed speaks only where Bob cannot see: nothing changes
    ana = recall.search(question, ["history"], person="ana", k=5)
    assert ana[0].text == "Bread is overrated."  # Zed's own turn, for Ana
    assert {h.text for h in ana} >= {"Zed told me the bakery sells great rye."}


def test_the_question_is_embedded_without_its_speakers_unless_the_graph_is_off(
    memory: Memory, recall: Recall, embedder: Embedder
) -> None:
    memory.write_turns("c", [{"speaker": "Melanie", "text": "I paint lakes at dawn."}])
    turn = embedder.embed_one("Melanie: I paint lakes at dawn.")

    def cos_of_hit() -> float:
        [hit] = [
            h for h in recall.search("What does Melanie paint?", ["history"]) if h.kind == "turn"
        ]
        return float(hit.extra["cos"])

    stripped = float(np.dot(embedder.embed_query("What does paint?"), turn))
    whole = float(np.dot(embedder.embed_query("What does Melanie paint?"), turn))
    assert abs(stripped - whole) > 0.01
    assert abs(cos_of_hit() - stripped) < 1e-4
    memory.configure(search={"knowledge_graph": False})  # no speaker bonus: the name stays
    assert abs(cos_of_hit() - whole) < 1e-4
