"""Reads for the graph jobs (reflection, evolution): current items with what they read of each
other, the links between them, and the insights already made."""

from __future__ import annotations

from typing import Any

from psycopg import sql

from memory_pipelines.store.db import Conn

# Links that say two items belong together. supersedes joins an item to its own old wording,
# part_of joins a member to its insight: neither makes them neighbours.
NEIGHBOUR_LINKS = ("relates_to", "caused_by", "owned_by")


def current_items(
    conn: Conn,
    store_id: str,
    *,
    never_recalled: bool = False,
    limit: int | None = None,
    of: tuple[str | None] | None = None,
) -> list[dict[str, Any]]:
    """Current items other than insights (newest first when limited), with their embedding;
    `never_recalled` keeps those recall never returned (access_count = 0); `of`, a 1-tuple,
    those of that person (None: the shared ones)."""
    # `person_id = x` or `IS NULL`, which the (store_id, state, person_id) index serves
    whose = (
        sql.SQL("")
        if of is None
        else sql.SQL(" AND person_id IS NULL")
        if of[0] is None
        else sql.SQL(" AND person_id = {}").format(sql.Literal(of[0]))
    )
    rows = conn.execute(
        sql.SQL(
            "SELECT item_id, person_id, category, context, body, confidence, trusted, source,"
            " tags, entities, embedding FROM agent_memory_items"
            " WHERE store_id = %s AND state = 'current' AND category <> 'insight'"
            " AND (NOT %s OR access_count = 0){} ORDER BY item_id DESC LIMIT %s"
        ).format(whose),
        (store_id, never_recalled, limit),
    ).fetchall()
    return [dict(r) for r in rows]


def persons_unrecalled(conn: Conn, store_id: str) -> list[str | None]:
    """The persons (None: the shared records) with a current, never-recalled item other than
    an insight, the shared first, then by id."""
    rows = conn.execute(
        "SELECT DISTINCT person_id FROM agent_memory_items WHERE store_id = %s"
        " AND state = 'current' AND category <> 'insight' AND access_count = 0"
        " ORDER BY person_id NULLS FIRST",
        (store_id,),
    ).fetchall()
    return [r["person_id"] for r in rows]


def item_links(conn: Conn, store_id: str) -> list[tuple[int, int, float]]:
    """(src, dst, confidence) of every neighbour link between two current, non-insight items."""
    rows = conn.execute(
        "SELECT l.src_id, l.dst_id, l.confidence FROM links l"
        " JOIN agent_memory_items a ON a.item_id = l.src_id"
        " JOIN agent_memory_items b ON b.item_id = l.dst_id"
        " WHERE l.store_id = %s AND l.src_kind = 'item' AND l.dst_kind = 'item'"
        " AND l.link_type = ANY(%s) AND a.state = 'current' AND b.state = 'current'"
        " AND a.category <> 'insight' AND b.category <> 'insight'",
        (store_id, list(NEIGHBOUR_LINKS)),
    ).fetchall()
    return [(int(r["src_id"]), int(r["dst_id"]), float(r["confidence"])) for r in rows]


def insights(conn: Conn, store_id: str, written_by: str) -> list[tuple[int, str, list[int]]]:
    """(id, state, fed_by) of every insight of the store that `written_by` (reflection) made,
    whatever its state. Only those: a record saved with the category `insight` (any slug is a
    category) was fed by nothing reflection knows, and an empty set of members is within every
    cluster, so another person's cluster would replace it."""
    rows = conn.execute(
        "SELECT item_id, state, fed_by FROM agent_memory_items"
        " WHERE store_id = %s AND category = 'insight' AND written_by = %s"
        " AND cardinality(fed_by) > 0 ORDER BY item_id",
        (store_id, written_by),
    ).fetchall()
    return [(int(r["item_id"]), r["state"], [int(i) for i in r["fed_by"]]) for r in rows]


def lock_unrecalled(conn: Conn, store_id: str, read: dict[int, str]) -> set[int]:
    """Of these items (id: the context they were read with), those still current, never
    recalled and worded as read, locked against a change until the transaction ends (a
    recall in between takes them out of the cluster, and a merge that rewords one makes the
    summary read from its old words stale)."""
    ids = sorted(read)
    rows = conn.execute(
        "SELECT i.item_id FROM agent_memory_items i"
        " JOIN unnest(%s::bigint[], %s::text[]) AS m(item_id, context)"
        " ON i.item_id = m.item_id AND i.context = m.context"
        " WHERE i.store_id = %s AND i.state = 'current' AND i.access_count = 0"
        " ORDER BY i.item_id FOR SHARE OF i",
        (ids, [read[i] for i in ids], store_id),
    )
    return {int(r["item_id"]) for r in rows}


def insight_trust_violations(conn: Conn, store_id: str) -> int:
    """Insights with no fed_by, or trusted although an item that fed them is not."""
    row = conn.execute(
        "SELECT count(*) AS n FROM agent_memory_items i WHERE i.store_id = %s"
        " AND i.category = 'insight' AND (cardinality(i.fed_by) = 0 OR (i.trusted AND EXISTS ("
        "   SELECT 1 FROM agent_memory_items m WHERE m.item_id = ANY(i.fed_by)"
        "   AND NOT m.trusted)))",
        (store_id,),
    ).fetchone()
    return int(row["n"]) if row else 0


def evolve_text_changes(conn: Conn, store_id: str) -> int:
    """Versions written by evolution whose context or body differs from the version before."""
    row = conn.execute(
        "SELECT count(*) AS n FROM item_versions v JOIN item_versions p"
        " ON p.item_id = v.item_id AND p.version = v.version - 1"
        " WHERE v.store_id = %s AND v.change = 'evolve'"
        " AND (v.snapshot->>'context' IS DISTINCT FROM p.snapshot->>'context'"
        "   OR v.snapshot->>'body' IS DISTINCT FROM p.snapshot->>'body')",
        (store_id,),
    ).fetchone()
    return int(row["n"]) if row else 0


def lock_reflection(conn: Conn, store_id: str) -> None:
    """Serialise reflection's writers of one store until the transaction ends."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended('reflection:' || %s, 0))", (store_id,)
    )
