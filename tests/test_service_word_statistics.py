"""Words ranked by the BM25 index (a store past EXACT_ROWS turns, on a server with
pg_textsearch) through the HTTP API: the scores a key limited to one person gets back must not
move with words that only another person's hidden turns use. The index's own statistics are
the whole table's; search ranks its candidates' words with the candidates' statistics."""

from __future__ import annotations

import httpx
import pytest

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import search as search_db
from memory_pipelines.store.db import Database
from tests.api_server import new_key, only_person, tenant

QUOKKA, MARMOSET = "I saw a quokka at the zoo today", "I saw a marmoset at the zoo today"


def test_another_persons_hidden_words_do_not_move_a_readers_scores(
    db: Database, embedder: Embedder, client: httpx.Client
) -> None:
    with db.connection() as conn:
        if not search_db.capabilities(conn).bm25:
            pytest.skip("the server has no pg_textsearch: words are ranked in SQL")
    t = tenant(db)
    memory = Memory(t.store, db=db, embedder=embedder)
    memory.add_person("ana")
    memory.add_person("bob")
    bob = t.auth(new_key(db, t.org, only_person(t.store, "bob"))[1])
    diary = [
        {"text": f"Entry {i}: the weather was fine and the meeting ran long"}
        for i in range(search_db.EXACT_ROWS + 50)
    ]
    for n in range(0, len(diary), 500):
        memory.write_turns("ana-diary", diary[n : n + 500], person="ana")
    memory.write_turns("bob-1", [{"text": QUOKKA}], person="bob")
    memory.write_turns("bob-2", [{"text": MARMOSET}], person="bob")

    def scores() -> dict[str, float]:
        r = client.post(
            f"/v1/stores/{t.store}/search",
            json={"query": "quokka marmoset", "scopes": ["history"], "k": 10},
            headers=bob,
        )
        assert r.status_code == 200, r.text
        return {h["text"]: h["score"] for h in r.json()["hits"]}

    before = scores()
    assert set(before) == {QUOKKA, MARMOSET}
    # Ana's private chat says "marmoset" 200 times; nothing Bob may read changes.
    memory.write_turns(
        "ana-secret", [{"text": f"The marmoset plan, step {i}"} for i in range(200)], person="ana"
    )
    after = scores()
    assert after == pytest.approx(before, abs=1e-9)
