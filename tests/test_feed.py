"""The change feed: events in commit order, delivered by NOTIFY, resumed after a dropped
connection or from a cursor with no gap and no repeat."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.api.feed import APP_NAME
from memory_pipelines.errors import ValidationError
from memory_pipelines.store import events as events_db


def _write(memory: Memory, n: int, tag: str) -> None:
    """n events, one transaction each, as independent writers would."""
    for i in range(n):
        with memory.db.transaction() as conn:
            events_db.record_event(conn, memory.store_id, "create", None, f"{tag}{i}")


def _all_ids(memory: Memory) -> list[int]:
    with memory.db.connection() as conn:
        rows = conn.execute(
            "SELECT event_id FROM events WHERE store_id = %s ORDER BY event_id",
            (memory.store_id,),
        ).fetchall()
    return [r["event_id"] for r in rows]


def test_ids_follow_commit_order_under_concurrent_writers(memory: Memory, pg_dsn: str) -> None:
    with psycopg.connect(pg_dsn) as first, psycopg.connect(pg_dsn) as second:
        first.execute(
            "INSERT INTO events (store_id, kind, actor) VALUES (%s, 'create', 'first')",
            (memory.store_id,),
        )
        second.execute(
            "INSERT INTO events (store_id, kind, actor) VALUES (%s, 'create', 'second')",
            (memory.store_id,),
        )
        second.commit()  # took its id later, commits first
        seen = list(memory.subscribe(0, idle_timeout=0.0))
        assert [e.actor for e in seen] == ["second"]
        first.commit()
    later = list(memory.subscribe(seen[-1].event_id, idle_timeout=0.0))
    # a cursor past "second" still gets "first": its id was taken at commit
    assert [e.actor for e in later] == ["first"]
    assert later[0].event_id > seen[0].event_id


def test_backlog_then_live_events_by_notification(memory: Memory) -> None:
    saved = memory.save({"category": "fact", "context": "The Lisbon office opens at 8:30"})
    _write(memory, 2, "old")
    feed = memory.subscribe(0, idle_timeout=10.0, poll_seconds=30.0)
    backlog = [next(feed) for _ in range(3)]
    assert [(e.kind, e.item_id) for e in backlog][0] == ("create", saved.id)
    writer = threading.Timer(0.3, _write, (memory, 1, "live"))
    start = time.monotonic()
    writer.start()
    live = next(feed)
    # well before the 30 s poll: the NOTIFY woke the subscriber
    assert live.actor == "live0" and time.monotonic() - start < 5
    feed.close()
    writer.join()


def _kill(memory: Memory, pg_dsn: str) -> int:
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (f"{APP_NAME} {memory.store_id}",),
        ).fetchall()
    return len(rows)


def test_resume_after_a_dropped_connection_loses_and_repeats_nothing(
    memory: Memory, pg_dsn: str
) -> None:
    _write(memory, 5, "a")
    feed = memory.subscribe(0, idle_timeout=1.5, poll_seconds=0.5)
    got = [next(feed).event_id for _ in range(2)]  # mid-stream: 3 of the backlog unread
    assert _kill(memory, pg_dsn) == 1
    _write(memory, 3, "b")
    got += [e.event_id for e in feed]  # reconnects, resumes from its cursor, then idles out
    assert got == _all_ids(memory) and len(got) == 8 == len(set(got))

    # a consumer that stopped resumes with the last id it handled
    _write(memory, 2, "c")
    rest = [e.event_id for e in memory.subscribe(got[-1], idle_timeout=0.0)]
    assert got + rest == _all_ids(memory) and len(rest) == 2


def test_every_item_change_is_on_the_feed(memory: Memory) -> None:
    a = memory.save({"category": "fact", "context": "Deploys happen on Tuesdays after standup"})
    c = memory.save(
        {"category": "commitment", "context": "Ana will send the deploy checklist to Rui"}
    )
    memory.fulfil(c.id, actor="ana")
    memory.delete(a.id, actor="ana")
    kinds = [(e.kind, e.item_id) for e in memory.subscribe(0, idle_timeout=0.0)]
    assert kinds == [
        ("create", a.id),
        ("create", c.id),
        ("fulfil", c.id),
        ("delete", a.id),
    ]


def test_arguments_are_checked() -> None:
    from memory_pipelines.api.feed import subscribe

    with pytest.raises(ValidationError, match="after_id"):
        subscribe("x", -1)
    with pytest.raises(ValidationError, match="batch"):
        subscribe("x", 0, batch=0)


def test_a_shared_records_archive_tells_a_person_nothing_of_others_recalls(
    memory: Memory,
) -> None:
    """Why a record faded (its salience, the days nobody recalled it) counts every person's
    searches of a shared record: the feed leaves both out for a reader limited to a person,
    as a shared record's recall counters are. Everyone (the administrator) gets them."""
    from datetime import UTC, datetime

    from memory_pipelines.api.decay import score_store
    from memory_pipelines.api.maintenance import archive_pass
    from memory_pipelines.store import stores as stores_db
    from memory_pipelines.store.visibility import EVERYONE

    memory.add_person("bob")
    memory.configure(
        decay_per_type={"half_life_days": {"fact": 1}}, maintenance={"archive_idle_days": 30}
    )
    shared = memory.save({"category": "fact", "context": "The old VPN host is vpn-3"}).id
    own = memory.save({"category": "fact", "context": "Bob's old desk was 4B", "person": "bob"}).id
    with memory.db.transaction() as conn:
        # created 100 days ago; another person's search returned the shared one 40 days ago
        conn.execute(
            "UPDATE agent_memory_items SET created_at = now() - interval '100 days',"
            " updated_at = now() - interval '100 days' WHERE item_id = ANY(%s)",
            ([shared, own],),
        )
        conn.execute(
            "UPDATE agent_memory_items SET last_recalled_at = now() - interval '40 days'"
            " WHERE item_id = %s",
            (shared,),
        )
        conn.execute(
            "INSERT INTO job_activations (store_id, job, active, activated_at, passed, actor)"
            " VALUES (%s, 'decay', true, now(), true, 'test')",
            (memory.store_id,),
        )
    score_store(memory.db, memory.store_id)
    with memory.db.connection() as conn:
        card = stores_db.get_settings(conn, memory.store_id).maintenance
    assert archive_pass(memory.db, memory.store_id, card, datetime.now(UTC)) == 2

    def archives(reader: object) -> dict[int, dict]:
        feed = memory.subscribe(0, idle_timeout=0.0, reader=reader)
        return {e.item_id: e.payload for e in feed if e.kind == "archive"}

    admin = archives(EVERYONE)
    assert round(admin[shared]["idle_days"]) == 40 and "salience" in admin[shared]
    bob = archives("bob")
    assert bob[shared] == {}  # nothing of when another person last asked
    assert bob[own] == admin[own] and round(bob[own]["idle_days"]) == 100  # his own record
