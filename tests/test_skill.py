"""The _memory skill: the save policy as an agent is taught it. It names the store's own budget,
teaches every reason the write path gives, and what it tells to skip the write path skips;
served to any key of the store over HTTP."""

from __future__ import annotations

import httpx

from memory_pipelines.api.memory import Memory
from memory_pipelines.core.policy import SAVE_REASONS, SKIP_REASONS
from memory_pipelines.core.skill import SAVE_LINES, SKIP_LINES
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org, new_store, tenant


def test_the_skill_teaches_every_reason_and_the_stores_budget(memory: Memory) -> None:
    assert set(SAVE_LINES) == set(SAVE_REASONS) and set(SKIP_LINES) == set(SKIP_REASONS)
    text = memory.skill()
    assert "At most 2 saves per turn" in text
    for line in SAVE_LINES.values():
        assert line in text
    assert "low-confidence speculation (confidence 2 or less)" in text
    memory.configure(save_policy={"budget_per_turn": 1})
    assert "At most 1 save per turn" in memory.skill()


def test_what_the_skill_says_to_skip_the_write_path_skips(memory: Memory) -> None:
    memory.write_turn("c", "We use Postgres 16 for the billing service.", speaker="Ana")
    skipped = {
        "greeting": {"category": "fact", "context": "Hi there, thanks so much!"},
        "speculation": {
            "category": "fact",
            "context": "The billing team may be moving to Lisbon.",
            "confidence": 2,
        },
        "already_in_history": {
            "category": "fact",
            "context": "We use Postgres 16 for the billing service.",
        },
    }
    for reason, item in skipped.items():
        result = memory.save({"confidence": 7, **item})
        assert (result.saved, result.skipped) == (False, reason), (reason, result)
    episode = memory.save(
        {"category": "session_summary", "context": "We talked about billing.", "confidence": 7}
    )
    assert episode.skipped == "already_in_history"  # an episode is history's job
    # the budget it names: a third save in one turn is refused
    memory.write_turn("c", "Ana prefers email. Ana works in Porto. Ana owns a bike.", speaker="Ana")
    kept = [
        memory.save(
            {"category": "fact", "context": text, "confidence": 8}, chat="c", turn_seq=2
        ).skipped
        for text in ("Ana prefers email to calls.", "Ana works from Porto.", "Ana cycles to work.")
    ]
    assert kept == [None, None, "budget"]


def test_any_key_of_the_store_reads_the_skill_over_http(db: Database, client: httpx.Client) -> None:
    t = tenant(db)
    res = client.get(f"/v1/stores/{t.store}/skills/_memory", headers=t.auth())
    assert res.status_code == 200, res.text
    skill = res.json()
    assert (skill["name"], skill["format"]) == ("_memory", "markdown")
    assert skill["text"].startswith("# _memory") and "At most 2 saves per turn" in skill["text"]
    # a key that may only search still reads it; one of another organisation finds no store
    _, searcher = new_key(db, t.org, [{"effect": "permit", "actions": ["search_memory"]}])
    assert client.get(f"/v1/stores/{t.store}/skills/_memory", headers=t.auth(searcher)).is_success
    _, stranger = new_key(db, new_org(db))
    res = client.get(f"/v1/stores/{t.store}/skills/_memory", headers=t.auth(stranger))
    assert res.status_code == 404
    other = new_store(db, t.org)
    _, elsewhere = new_key(
        db, t.org, [{"effect": "permit", "actions": ["write_memory"], "stores": [other]}]
    )
    res = client.get(f"/v1/stores/{t.store}/skills/_memory", headers=t.auth(elsewhere))
    assert res.status_code == 403 and "write_memory" in res.text
    assert client.get(f"/v1/stores/{t.store}/skills/_memory").status_code == 401


def test_the_skill_of_a_store_that_does_not_exist_is_not_found(
    db: Database, client: httpx.Client
) -> None:
    t = tenant(db)
    res = client.get("/v1/stores/no-such-store/skills/_memory", headers=t.auth())
    assert res.status_code == 404, res.text
