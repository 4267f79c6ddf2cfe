"""Which words of a question name somebody or something of a store: a speaker of its turns
or an entity of its current items (the graph's part of search)."""

from __future__ import annotations

from collections.abc import Sequence

from psycopg import sql

from memory_pipelines.store.db import Conn
from memory_pipelines.store.visibility import VISIBLE_CHATS

# Each word's first visible turn of that speaker (LIMIT 1, not EXISTS): the statement runs
# on every search, so psycopg prepares it and the server soon plans it once for any words.
# That generic plan, not knowing the word, read with EXISTS every turn of a named speaker
# (a bitmap scan of 4,568 rows for "Joanna" at 100k turns: 1.4 ms p50, 3.8 ms p95 over the
# LoCoMo questions); with LIMIT 1 it stops at the first (0.2 ms p50, 0.27 ms p95).
_SPEAKERS = sql.SQL(
    "SELECT u.w FROM unnest(%(words)s::text[]) WITH ORDINALITY AS u(w, i)"
    " CROSS JOIN LATERAL (SELECT 1 FROM turns WHERE store_id = %(store)s"
    "  AND lower(speaker) = lower(u.w) AND chat_id IN ({chats}) LIMIT 1) AS t"
    " ORDER BY u.i"
).format(chats=sql.SQL(VISIBLE_CHATS))


def entity_names(conn: Conn, store_id: str, words: Sequence[str]) -> list[str]:
    """Which of the words name a speaker of the store or an entity of its current items. Each
    word is its own lookup with its own value, so the planner sees it (a word the statistics
    do not know is rare), and each reads an index keyed by the store (migration 017)."""
    words = list(dict.fromkeys(words))
    if not words:
        return []
    lookup = (
        "SELECT %(w{i})s::text AS w WHERE EXISTS (SELECT 1 FROM turns WHERE store_id = %(s)s"
        " AND lower(speaker) = lower(%(w{i})s::text)) OR EXISTS (SELECT 1 FROM"
        " agent_memory_items WHERE state = 'current'"
        " AND store_entities(store_id, entities) @> ARRAY[%(k{i})s::text])"
    )
    params: dict[str, str] = {"s": store_id}
    for i, w in enumerate(words):
        params[f"w{i}"], params[f"k{i}"] = w, f"{store_id}\x1f{w}"
    sql = " UNION ALL ".join(lookup.format(i=i) for i in range(len(words)))
    # Asked whether any row exists, the planner reads the table from the start when it
    # expects hundreds of matches (a word it has no statistics for is given 0.5% of the rows),
    # and a word no item names ("What") then reads every item: 374 ms at 100,000. The index
    # answers in a millisecond or two either way. Set back afterwards (the value it had is
    # kept in a setting of our own): inside a caller's transaction (an audited read) this
    # block is a savepoint, whose release would keep the setting for the caller's own
    # queries. The three statements go in one round trip (pipeline mode).
    with conn.pipeline(), conn.transaction():
        conn.execute(
            "SELECT set_config('memory_pipelines.seqscan_was', current_setting('enable_seqscan'),"
            " true), set_config('enable_seqscan', 'off', true)"
        )
        cur = conn.execute(sql, params, prepare=False)
        conn.execute(
            "SELECT set_config('enable_seqscan',"
            " current_setting('memory_pipelines.seqscan_was'), true)"
        )
    found = [r["w"] for r in cur.fetchall()]
    return found


def speakers_among(
    conn: Conn, store_id: str, words: Sequence[str], person: str | None
) -> list[str]:
    """Which of the words name a speaker of a chat this reader may see (shared chats, and the
    person's own): the names search takes out of the question it embeds. Only visible chats
    count, so what another person's chats hold never changes what this reader is answered."""
    words = list(dict.fromkeys(words))
    if not words:
        return []
    rows = conn.execute(_SPEAKERS, {"words": words, "store": store_id, "person": person})
    return [r["w"] for r in rows.fetchall()]
