"""Auto-recall: threshold, boot-window skip, both envelopes, commitments, the injection log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.core.types import AutoRecall
from memory_pipelines.errors import NotFound

T0 = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)


def _lines(result: AutoRecall) -> list[dict]:
    data = result.messages[-1]["content"]
    body = data.split("\n")[1:-1]
    return [json.loads(line) for line in body]


def test_generic_message_injects_nothing(memory: Memory, recall: Recall) -> None:
    memory.save(
        {"category": "preference", "context": "Prefers aisle seats on flights", "confidence": 8}
    )
    memory.write_turn("c", "hello")
    out = autorecall(recall, "c", "ok thanks")
    assert out.messages == [] and out.records == []
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT hit_ids, tokens FROM agent_roi_injections WHERE store_id = %s",
            (memory.store_id,),
        ).fetchone()
    assert row == {"hit_ids": [], "tokens": 0}


def test_relevant_memory_is_injected_with_envelope(memory: Memory, recall: Recall) -> None:
    item = memory.save(
        {"category": "preference", "context": "Prefers aisle seats on flights", "confidence": 8}
    ).id
    memory.write_turn("c", "Let's plan the trip.")
    out = autorecall(
        recall, "c", "Book me a flight to Lisbon, which seat should I pick?", turn_seq=2
    )
    lines = _lines(out)
    assert lines[0]["type"] == "memory" and lines[0]["ref"] == f"item:{item}"
    assert lines[0]["confidence"] == 8 and lines[0]["date"]
    call, result, data = out.messages
    code = json.loads(call["tool_calls"][0]["function"]["arguments"])["code"]
    assert call["tool_calls"][0]["function"]["name"] == "run_cell"
    assert 'use("agent:recall@v1")' in code and "r.search(" in code
    assert result["role"] == "tool"
    assert data["content"].startswith('<untrusted source="memory">')
    assert data["content"].endswith("</untrusted>")
    memory.configure(trust_envelope=False)
    plain = autorecall(recall, "c", "Which seat do I like on a flight?")
    content = plain.messages[-1]["content"]
    assert content.startswith("[memory]\n") and content.endswith("\n[/memory]")
    with memory.db.connection() as conn:
        logged = conn.execute(
            "SELECT turn_seq, hit_ids, scores, tokens FROM agent_roi_injections"
            " WHERE store_id = %s ORDER BY injection_id",
            (memory.store_id,),
        ).fetchall()
    assert logged[0]["turn_seq"] == 2 and logged[0]["hit_ids"] == [f"item:{item}"]
    assert logged[0]["scores"][0] > 0.35 and logged[0]["tokens"] > 0


def test_hits_inside_the_boot_window_are_skipped(memory: Memory, recall: Recall) -> None:
    memory.write_turns(
        "c",
        [
            {"text": "The wifi password for the cabin is pinecone42.", "created_at": T0},
            {"text": "Great, thanks.", "created_at": T0 + timedelta(minutes=1)},
        ],
    )
    out = autorecall(recall, "c", "What's the cabin wifi password?")
    assert out.skipped["in_boot_window"] >= 1
    assert not any("pinecone42" in json.dumps(r) for r in out.records)
    tiny = autorecall(recall, "c", "What's the cabin wifi password?", boot_budget_tokens=1)
    assert any("pinecone42" in json.dumps(r) for r in tiny.records)


def test_documents_and_emails_are_injected_as_themselves_with_a_handle_that_reads_them(
    memory: Memory, recall: Recall
) -> None:
    memory.add_document(
        "runbook-7",
        "To rotate the Kafka TLS certificates, run certbot renew on broker-1, then restart each"
        " broker one at a time.",
        title="Kafka runbook",
    )
    memory.write_turn("c", "Hi there")
    out = autorecall(recall, "c", "How do I rotate the Kafka TLS certificates?")
    [line] = [r for r in out.records if r["type"] == "document"]
    assert line["ref"].startswith("document:") and line["title"] == "Kafka runbook"
    assert not [r for r in out.records if r["type"] == "related past discussion"]
    [passage] = recall.hydrate([line["ref"]])  # the handle it carries reads it whole
    assert "certbot renew" in passage.text and line["read"] == f'r.hydrate(["{line["ref"]}"])'


def test_open_commitments_ride_along_soonest_first_capped(memory: Memory, recall: Recall) -> None:
    memory.add_person("sam")
    memory.write_turn("c", "hi", person="sam")
    for days, text in (
        (5, "Send the signed lease to the agent"),
        (1, "Call the plumber back"),
        (3, "Return the library books"),
        (2, "Pay the council tax"),
    ):
        memory.save(
            {
                "category": "commitment",
                "context": text,
                "confidence": 8,
                "person": "sam",
                "due_at": (T0 + timedelta(days=days)).isoformat(),
            }
        )
    done = memory.save(
        {
            "category": "commitment",
            "context": "Renew the passport",
            "confidence": 8,
            "person": "sam",
            "status": "fulfilled",
            "due_at": T0.isoformat(),
        }
    )
    assert done.saved
    memory.configure(commitments={"most_carried": 3})
    out = autorecall(recall, "c", "What do I still owe people this week?", person="sam")
    promised = [r["promise"] for r in out.records if r["type"] == "open commitment"]
    assert promised == ["Call the plumber back", "Pay the council tax", "Return the library books"]
    memory.write_turn("shared", "hi")
    other = autorecall(recall, "shared", "What do I still owe people this week?", person=None)
    assert not [r for r in other.records if r["type"] == "open commitment"]
    with pytest.raises(NotFound):  # sam's chat is not a turn for nobody
        autorecall(recall, "c", "What do I still owe people this week?", person=None)


def test_an_open_commitment_past_most_carried_never_reaches_the_turn_through_search(
    memory: Memory, recall: Recall
) -> None:
    memory.add_person("sam")
    memory.write_turn("c", "hi", person="sam")
    ids = {}
    for days, text in (
        (1, "Call the plumber back about the leaking kitchen tap"),
        (9, "Send the signed flat lease to the letting agent in Leeds"),
    ):
        saved = memory.save(
            {
                "category": "commitment",
                "context": text,
                "confidence": 8,
                "person": "sam",
                "due_at": (T0 + timedelta(days=days)).isoformat(),
            }
        )
        ids[text] = saved.id
    lease = ids["Send the signed flat lease to the letting agent in Leeds"]
    question = "Did I send the signed flat lease to the letting agent in Leeds?"
    memory.configure(commitments={"most_carried": 1})
    out = autorecall(recall, "c", question, person="sam")
    refs = [r.get("ref") for r in out.records]
    assert f"item:{lease}" not in refs, out.records  # the soonest one is carried, not the rest
    assert [r["type"] for r in out.records].count("open commitment") == 1
    # With the card carrying none, an open commitment the message is about comes by search.
    memory.configure(commitments={"carry_open": False})
    out = autorecall(recall, "c", question, person="sam")
    assert f"item:{lease}" in [r.get("ref") for r in out.records], out.records


def test_autorecall_makes_no_model_call_whatever_the_search_card_says(
    memory: Memory, recall: Recall
) -> None:
    for text in (
        "The spare office key is in the red drawer of the front desk.",
        "The printer on the second floor jams on thick paper.",
    ):
        memory.save({"category": "fact", "context": text, "confidence": 7})
    memory.write_turn("c", "hello")
    memory.configure(search={"reranker": "local"})
    out = autorecall(recall, "c", "Where is the spare office key kept?")
    assert any("red drawer" in json.dumps(r) for r in out.records), out.records
    recall.search("Where is the spare office key kept?", ["agent"], k=2)  # a search does call
    with memory.db.connection() as conn:
        tasks = [
            r["task"]
            for r in conn.execute(
                "SELECT task FROM model_calls WHERE store_id = %s", (memory.store_id,)
            ).fetchall()
        ]
    assert tasks == ["rerank"]
