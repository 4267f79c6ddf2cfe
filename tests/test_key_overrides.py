"""Per-key settings as the read functions take them: a key's trust envelope decides how its
auto-recall is wrapped, and a key's decay per type goes first for the confidence it reads.
Neither changes the store or what anybody else reads."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.access import authenticate
from memory_pipelines.api.autorecall import autorecall
from memory_pipelines.api.decay import confidence_as_read
from memory_pipelines.core.decay import reader_half_lives
from memory_pipelines.core.types import AutoRecall
from memory_pipelines.errors import ValidationError
from memory_pipelines.store.db import Database
from tests.api_server import new_key, new_org

QUESTION = "Book me a flight to Lisbon, which seat should I pick?"


def _data(result: AutoRecall) -> str:
    return str(result.messages[-1]["content"])


def test_a_keys_trust_envelope_goes_before_the_stores(memory: Memory, recall: Recall) -> None:
    memory.save({"category": "preference", "context": "Prefers aisle seats on flights"})
    memory.write_turn("c", "Let's plan the trip.")
    assert _data(autorecall(recall, "c", QUESTION)).startswith('<untrusted source="memory">')
    plain = _data(autorecall(recall, "c", QUESTION, trust_envelope=False))
    assert plain.startswith("[memory]\n") and plain.endswith("\n[/memory]")
    # the store's setting is untouched: without an override it still wraps
    assert memory.settings().trust_envelope is True
    assert _data(autorecall(recall, "c", QUESTION, trust_envelope=None)).startswith("<untrusted")

    memory.configure(trust_envelope=False)
    assert _data(autorecall(recall, "c", QUESTION)).startswith("[memory]")
    wrapped = _data(autorecall(recall, "c", QUESTION, trust_envelope=True))
    assert wrapped.startswith('<untrusted source="memory">') and wrapped.endswith("</untrusted>")
    with pytest.raises(ValidationError) as err:
        autorecall(recall, "c", QUESTION, trust_envelope="no")  # type: ignore[arg-type]
    assert err.value.field == "trust_envelope"


def test_a_keys_decay_goes_first_for_the_confidence_it_reads(memory: Memory) -> None:
    memory.configure(decay_per_type={"half_life_days": {"fact": 180.0, "preference": 365.0}})
    fact = memory.get(
        memory.save({"category": "fact", "context": "Ana lives in Porto", "confidence": 8}).id
    )
    pref = memory.get(
        memory.save({"category": "preference", "context": "Ana likes tea", "confidence": 6}).id
    )
    note = memory.get(
        memory.save({"category": "note", "context": "Parking is B2", "confidence": 4}).id
    )
    records = [fact, pref, note]
    later = fact.updated_at + timedelta(days=180)

    store = confidence_as_read(memory.db, memory.store_id, records, now=later)
    assert store[fact.item_id] == pytest.approx(4.0, rel=1e-3)  # one store half-life
    assert store[pref.item_id] == pytest.approx(6 * 0.5 ** (180 / 365), rel=1e-3)
    assert store[note.item_id] == 4.0  # a type with no half-life never decays

    key = {"fact": 30, "note": 90}
    read = confidence_as_read(memory.db, memory.store_id, records, decay_override=key, now=later)
    assert read[fact.item_id] == pytest.approx(8 * 0.5**6, rel=1e-3)  # the key's 30 days
    assert read[pref.item_id] == store[pref.item_id]  # not named by the key: the store's
    assert read[note.item_id] == pytest.approx(1.0, rel=1e-3)  # the key's, where none was

    # nothing else changed: the stored confidence, the store's decay, another reader's view
    assert memory.get(fact.item_id).confidence == 8
    assert memory.settings().decay_per_type.half_life_days["fact"] == 180.0
    assert confidence_as_read(memory.db, memory.store_id, records, now=later) == store
    # read the moment it was written, nothing has decayed
    now = confidence_as_read(
        memory.db, memory.store_id, records, decay_override=key, now=fact.updated_at
    )
    assert now[fact.item_id] == 8.0

    with pytest.raises(ValidationError) as err:
        confidence_as_read(memory.db, memory.store_id, records, decay_override={"fact": 0})
    assert err.value.field == "decay_override.fact"


def test_reader_half_lives_take_the_key_first() -> None:
    assert reader_half_lives({"fact": 180.0, "lesson": 365.0}, {"fact": 7.0, "note": 1.0}) == {
        "fact": 7.0,
        "lesson": 365.0,
        "note": 1.0,
    }
    assert reader_half_lives({"fact": 180.0}, None) == {"fact": 180.0}


def test_an_authenticated_key_carries_its_read_settings(db: Database) -> None:
    org = new_org(db)
    _, plain = new_key(db, org)
    _, own = new_key(db, org, decay_per_type={"fact": 30, "note": 7.5}, trust_envelope=False)
    p = authenticate(db, plain)
    assert p is not None and p.decay_per_type == () and p.trust_envelope is None
    p = authenticate(db, own)
    assert p is not None
    assert dict(p.decay_per_type) == {"fact": 30.0, "note": 7.5}
    assert p.trust_envelope is False
