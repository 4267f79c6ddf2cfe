"""Windows, candidates and pass statistics of extraction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.extract import WindowTurn
from memory_pipelines.core.windows import ChatState
from memory_pipelines.store.db import Conn, as_array

CONTEXT_TURNS = 3  # earlier turns shown with a window, so restatements can be recognised


def chat_states(
    conn: Conn, store_id: str, lookback_days: int, chat_ids: Sequence[int] | None = None
) -> list[ChatState]:
    """Each chat's turns and how far windows cover them (only the given chats, when given)."""
    rows = conn.execute(
        "SELECT c.chat_id, c.key_id, count(t.turn_id) AS total, max(t.seq) AS last_seq,"
        " max(t.created_at) AS last_at,"
        " coalesce(min(t.seq) FILTER (WHERE %(lb)s = 0"
        "   OR t.created_at >= now() - make_interval(days => %(lb)s)), max(t.seq) + 1) AS first_lb,"
        " coalesce((SELECT max(w.to_seq) FROM extraction_windows w"
        "   WHERE w.chat_id = c.chat_id), 0) AS covered"
        " FROM chats c JOIN turns t USING (chat_id) WHERE c.store_id = %(s)s"
        " AND (%(ids)s::bigint[] IS NULL OR c.chat_id = ANY(%(ids)s))"
        " GROUP BY c.chat_id, c.key_id ORDER BY c.chat_id",
        {"s": store_id, "lb": lookback_days, "ids": None if chat_ids is None else list(chat_ids)},
    ).fetchall()
    return [
        ChatState(
            r["chat_id"],
            r["key_id"],
            r["total"],
            r["covered"],
            r["last_seq"],
            r["last_at"],
            r["first_lb"],
        )
        for r in rows
    ]


def lock_planning(conn: Conn, store_id: str) -> None:
    """Serialise window planners of one store until the transaction ends. Each plans from the
    windows committed when it reads (`chat_states`' covered): two planning at once could
    each start a chat's windows at the same turn, and the conflict on (chat_id, from_seq)
    dropped the longer one, leaving its turns past the shorter one in no window."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('windows:' || %s, 0))", (store_id,))


def insert_windows(
    conn: Conn, store_id: str, chat_id: int, windows: Sequence[tuple[int, int]]
) -> int:
    new = 0
    for first, last in windows:
        row = conn.execute(
            "INSERT INTO extraction_windows (store_id, chat_id, from_seq, to_seq)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT (chat_id, from_seq) DO NOTHING"
            " RETURNING window_id",
            (store_id, chat_id, first, last),
        ).fetchone()
        new += row is not None
    return new


def windows_in_state(conn: Conn, store_id: str, state: str) -> list[dict[str, Any]]:
    """The store's windows in this state, with the person their chat is for (None: shared)."""
    return list(
        conn.execute(
            "SELECT w.window_id, w.chat_id, w.from_seq, w.to_seq, c.person_id"
            " FROM extraction_windows w JOIN chats c USING (chat_id)"
            " WHERE w.store_id = %s AND w.state = %s ORDER BY w.chat_id, w.from_seq",
            (store_id, state),
        )
    )


def window_turns(conn: Conn, chat_id: int, from_seq: int, to_seq: int) -> list[WindowTurn]:
    """The window's turns with a few earlier ones for context, oldest first, with their stored
    vectors and their sentences' vectors (so the extractor embeds nothing again)."""
    rows = (
        conn.cursor(binary=True)
        .execute(
            "SELECT t.seq, t.role, t.speaker, t.text, t.created_at, t.embedding,"
            "   array_agg(s.start_char ORDER BY s.ord) FILTER (WHERE s.ord IS NOT NULL) AS starts,"
            "   array_agg(s.end_char ORDER BY s.ord) FILTER (WHERE s.ord IS NOT NULL) AS ends,"
            "   array_agg(s.embedding ORDER BY s.ord) FILTER (WHERE s.ord IS NOT NULL) AS vecs"
            " FROM turns t LEFT JOIN turn_sentences s USING (turn_id)"
            " WHERE t.chat_id = %s AND t.seq BETWEEN %s AND %s GROUP BY t.turn_id ORDER BY t.seq",
            (chat_id, max(1, from_seq - CONTEXT_TURNS), to_seq),
        )
        .fetchall()
    )
    return [
        WindowTurn(
            r["seq"],
            r["role"],
            r["speaker"],
            r["text"],
            r["created_at"],
            None if r["embedding"] is None else as_array(r["embedding"]),
            {
                r["text"][a:z]: as_array(v)
                for a, z, v in zip(r["starts"] or [], r["ends"] or [], r["vecs"] or [], strict=True)
            },
            context=r["seq"] < from_seq,
        )
        for r in rows
    ]


def store_candidates(
    conn: Conn,
    store_id: str,
    window_id: int,
    candidates: Sequence[tuple[dict[str, Any], bool, str | None, np.ndarray | None]],
) -> bool:
    """Replace the window's candidates (payload, valid, why not, vector if known) and mark it
    extracted (call in one transaction). False, writing nothing, when the window is no longer
    pending: another run read it meanwhile (and may have applied it: its candidates carry
    their outcomes, and a window set back to extracted would be applied twice)."""
    row = conn.execute(
        "SELECT state FROM extraction_windows WHERE window_id = %s FOR UPDATE", (window_id,)
    ).fetchone()
    if row is None or row["state"] != "pending":
        return False
    conn.execute("DELETE FROM extraction_candidates WHERE window_id = %s", (window_id,))
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO extraction_candidates (window_id, store_id, ord, payload, valid,"
            " drop_reason, embedding) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            [
                (window_id, store_id, i, Jsonb(p), v, r, e)
                for i, (p, v, r, e) in enumerate(candidates)
            ],
        )
    conn.execute(
        "UPDATE extraction_windows SET state = 'extracted', extracted_at = now()"
        " WHERE window_id = %s",
        (window_id,),
    )
    return True


def valid_candidates(conn: Conn, window_id: int) -> list[dict[str, Any]]:
    return list(
        conn.execute(
            "SELECT candidate_id, payload, embedding FROM extraction_candidates"
            " WHERE window_id = %s AND valid ORDER BY ord",
            (window_id,),
        )
    )


def set_outcomes(conn: Conn, outcomes: Sequence[tuple[int, str, int]]) -> None:
    """(candidate_id, outcome, item_id) of each applied candidate."""
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE extraction_candidates SET outcome = %s, item_id = %s WHERE candidate_id = %s",
            [(outcome, item_id, cid) for cid, outcome, item_id in outcomes],
        )


def claim_for_apply(conn: Conn, window_id: int) -> bool:
    """Mark an extracted window applied, in the transaction that applies it; False when another
    run got there first (the row lock makes a concurrent run wait, then see it applied)."""
    row = conn.execute(
        "UPDATE extraction_windows SET state = 'applied', applied_at = now()"
        " WHERE window_id = %s AND state = 'extracted' RETURNING window_id",
        (window_id,),
    ).fetchone()
    return row is not None


PASS_FIELDS = (
    "windows_new",
    "windows_read",
    "candidates",
    "dropped_invalid",
    "windows_applied",
    "written",
    "confirmed",
    "superseded",
    "model_calls",
    "duration_s",
)


def record_pass(conn: Conn, store_id: str, run_id: str, **counts: float) -> None:
    """Add a stage's numbers to the pass row of this run (one row per store and run)."""
    bad = set(counts) - set(PASS_FIELDS)
    if bad:
        raise ValueError(f"unknown pass fields {sorted(bad)}")
    cols = [sql.Identifier(c) for c in counts]
    conn.execute(
        sql.SQL(
            "INSERT INTO extraction_passes (store_id, run_id, finished_at{})"
            " VALUES (%s, %s, now(){}) ON CONFLICT (store_id, run_id)"
            " DO UPDATE SET finished_at = now(){}"
        ).format(
            sql.SQL("").join(sql.SQL(", {}").format(c) for c in cols),
            sql.SQL("").join(sql.SQL(", %s") for _ in cols),
            sql.SQL("").join(
                sql.SQL(", {c} = extraction_passes.{c} + EXCLUDED.{c}").format(c=c) for c in cols
            ),
        ),
        (store_id, run_id, *counts.values()),
    )


def last_pass(conn: Conn, store_id: str, run_id: str | None = None) -> dict[str, Any] | None:
    """The pass row of a run, or the store's latest."""
    return conn.execute(
        "SELECT * FROM extraction_passes WHERE store_id = %s AND (%s::text IS NULL OR run_id = %s)"
        " ORDER BY pass_id DESC LIMIT 1",
        (store_id, run_id, run_id),
    ).fetchone()


def recent_passes(conn: Conn, store_id: str, limit: int) -> list[dict[str, Any]]:
    """The store's last `limit` passes, oldest first (the console's chart of pass counts)."""
    rows = conn.execute(
        "SELECT * FROM extraction_passes WHERE store_id = %s ORDER BY pass_id DESC LIMIT %s",
        (store_id, limit),
    ).fetchall()
    return rows[::-1]


def uncapped_items(conn: Conn, store_id: str, extractor: str) -> list[int]:
    """Items the extractor wrote that break its promise: confidence above 6, or no chat and
    seq provenance (the memory_items asset's check). Ids, in order."""
    rows = conn.execute(
        "SELECT item_id FROM agent_memory_items WHERE store_id = %s AND written_by = %s"
        " AND source = 'machine' AND (confidence > 6 OR chat_id IS NULL OR from_seq IS NULL)"
        " ORDER BY item_id",
        (store_id, extractor),
    ).fetchall()
    return [int(r["item_id"]) for r in rows]


def turn_summary(conn: Conn, store_id: str) -> dict[str, Any] | None:
    """The store's newest turn (id and time) and how many turns wait for their embedding; None
    when it has no turn."""
    # Three index probes (turns_store_idx, turns_created_idx, turns_unembedded_idx), not a scan.
    row = conn.execute(
        "SELECT (SELECT max(turn_id) FROM turns WHERE store_id = %(s)s) AS top,"
        " (SELECT max(created_at) FROM turns WHERE store_id = %(s)s) AS last_at,"
        " (SELECT count(*) FROM turns WHERE store_id = %(s)s AND embedding IS NULL) AS unembedded",
        {"s": store_id},
    ).fetchone()
    return None if row is None or row["top"] is None else dict(row)


def table_rows(conn: Conn, store_id: str) -> dict[str, int]:
    """The store's rows of extraction_windows and extraction_candidates (Dagster's row
    counts), the candidates counted through their windows' index."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM extraction_windows WHERE store_id = %(s)s) AS windows,"
        " (SELECT count(*) FROM extraction_windows w JOIN extraction_candidates c"
        "  USING (window_id) WHERE w.store_id = %(s)s) AS candidates",
        {"s": store_id},
    ).fetchone()
    return {k: int(row[k]) if row else 0 for k in ("windows", "candidates")}


def open_windows(conn: Conn, store_id: str) -> int:
    """Windows planned but not yet applied (pending or extracted)."""
    row = conn.execute(
        "SELECT count(*) AS n FROM extraction_windows WHERE store_id = %s"
        " AND state IN ('pending', 'extracted')",
        (store_id,),
    ).fetchone()
    return int(row["n"]) if row else 0


def chats_with_new_turns(conn: Conn, store_id: str) -> list[int]:
    """Chats holding a turn after their last window: two index probes per chat, not a scan of
    the store's turns (the sensor asks every tick)."""
    rows = conn.execute(
        "SELECT c.chat_id FROM chats c WHERE c.store_id = %s"
        " AND (SELECT max(t.seq) FROM turns t WHERE t.chat_id = c.chat_id)"
        "   > coalesce((SELECT max(w.to_seq) FROM extraction_windows w"
        "   WHERE w.chat_id = c.chat_id), 0)",
        (store_id,),
    ).fetchall()
    return [int(r["chat_id"]) for r in rows]
