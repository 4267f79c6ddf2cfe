"""The link graph in Postgres: typed links between records, the items linkgen has still to read,
their candidate neighbours, the per-item progress marks, and the store's links as counts and
edges."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import sql

from memory_pipelines.core.links import LinkNode, Ref
from memory_pipelines.store import search
from memory_pipelines.store.db import Conn
from memory_pipelines.store.rows import one
from memory_pipelines.store.visibility import visible


def add_link(
    conn: Conn,
    store_id: str,
    src_kind: str,
    src_id: int,
    dst_kind: str,
    dst_id: int,
    link_type: str,
    *,
    confidence: float = 1.0,
    model: str = "",
    run_id: str = "",
) -> bool:
    """Store a typed link once; returns whether it is new."""
    row = conn.execute(
        "INSERT INTO links (store_id, src_kind, src_id, dst_kind, dst_id, link_type, confidence,"
        " model, run_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT DO NOTHING RETURNING link_id",
        (store_id, src_kind, src_id, dst_kind, dst_id, link_type, confidence, model, run_id),
    ).fetchone()
    return row is not None


_ITEM_NODE = (
    "SELECT item_id AS id, category, context AS text, 0 AS level, chat_id, from_seq, to_seq,"
    " entities, coalesce(metadata->>'owner', person_id) AS owner, fed_by, valid_from,"
    " person_id, updated_at, embedding FROM agent_memory_items"
    " WHERE store_id = %s AND item_id = ANY(%s)"
)
_CHUNK_NODE = (
    "SELECT chunk_id AS id, 'chunk' AS category, summary AS text, level, chat_id, from_seq,"
    " to_seq, '{}'::text[] AS entities, NULL AS owner, '{}'::bigint[] AS fed_by,"
    " period_start AS valid_from, NULL AS person_id, created_at AS updated_at, embedding"
    " FROM chunks WHERE store_id = %s AND chunk_id = ANY(%s)"
)


# A level-1 chunk c over the turns of item i.
_COVERS = sql.SQL(
    "c.chat_id = i.chat_id AND c.level = 1"
    " AND c.from_seq <= i.from_seq AND c.to_seq >= coalesce(i.to_seq, i.from_seq)"
)
# A current item whose present version linkgen has not read, or whose turns a level-1 chunk
# it did not see covers (items i joined to their marks g). By the chunks' ids, not their
# times: a chunk's created_at is its transaction's start, and a pyramid batch committed after
# linkgen read may have begun before it.
_PENDING = sql.SQL(
    "i.state = 'current'"
    " AND (g.item_id IS NULL OR g.item_updated_at <> i.updated_at OR EXISTS ("
    "   SELECT 1 FROM chunks c WHERE {} AND c.chunk_id <> ALL(g.chunks_seen)))"
).format(_COVERS)


def covering_chunks(conn: Conn, store_id: str, item_ids: Sequence[int]) -> dict[int, list[int]]:
    """The level-1 chunks over each item's turns, as linkgen sees them before it reads the
    items' candidates (an item without any is left out)."""
    rows = conn.execute(
        sql.SQL(
            "SELECT i.item_id, array_agg(c.chunk_id ORDER BY c.chunk_id) AS ids"
            " FROM agent_memory_items i JOIN chunks c ON {}"
            " WHERE i.store_id = %s AND i.item_id = ANY(%s) GROUP BY i.item_id"
        ).format(_COVERS),
        (store_id, list(item_ids)),
    ).fetchall()
    return {int(r["item_id"]): [int(c) for c in r["ids"]] for r in rows}


def pending_items(conn: Conn, store_id: str) -> list[int]:
    """Current items whose present version linkgen has not read yet, or whose turns a level-1
    chunk has covered since it was read (so an item extracted before the pyramid reached its
    turns still gets its decided_in / discussed_in link); oldest change first."""
    rows = conn.execute(
        sql.SQL(
            "SELECT i.item_id FROM agent_memory_items i LEFT JOIN linkgen_items g USING (item_id)"
            " WHERE i.store_id = %s AND {} ORDER BY i.updated_at, i.item_id"
        ).format(_PENDING),
        (store_id,),
    )
    return [int(r["item_id"]) for r in rows]


def pending_counts(conn: Conn, store_ids: Sequence[str]) -> dict[str, int]:
    """How many items linkgen has still to read (as pending_items), for each of the given stores
    owing any: one query, so asking costs no run."""
    rows = conn.execute(
        sql.SQL(
            "SELECT i.store_id, count(*) AS n FROM agent_memory_items i"
            " LEFT JOIN linkgen_items g USING (item_id)"
            " WHERE i.store_id = ANY(%s) AND {} GROUP BY i.store_id"
        ).format(_PENDING),
        (list(store_ids),),
    ).fetchall()
    return {r["store_id"]: int(r["n"]) for r in rows}


def _node(kind: str, r: dict[str, Any]) -> LinkNode:
    return LinkNode(
        kind=kind,
        id=int(r["id"]),
        text=r["text"],
        category=r["category"],
        level=int(r["level"]),
        chat_id=r["chat_id"],
        from_seq=r["from_seq"],
        to_seq=r["to_seq"],
        entities=tuple(r["entities"]),
        owner=r["owner"],
        fed_by=tuple(r["fed_by"]),
        valid_from=r["valid_from"],
        embedding=None if r["embedding"] is None else r["embedding"].to_numpy(),
    )


def load_nodes(
    conn: Conn, store_id: str, kind: str, ids: Sequence[int]
) -> list[tuple[LinkNode, dict[str, Any]]]:
    """(node, row) per id found, in the order given; the row keeps person_id and updated_at."""
    if not ids:
        return []
    sql = _ITEM_NODE if kind == "item" else _CHUNK_NODE
    rows = {int(r["id"]): dict(r) for r in conn.execute(sql, (store_id, list(ids)))}
    return [(_node(kind, rows[i]), rows[i]) for i in ids if i in rows]


def candidates(
    conn: Conn, store_id: str, source: LinkNode, person: str | None, k: int
) -> list[LinkNode]:
    """The source item's neighbours, at most 3k: the chunks holding the turns it was read
    from and the items it was drawn from first (provenance), then the best matches by words
    and meaning among current items (those its person may read) and chunks, alternating."""
    refs: list[Ref] = []
    if source.chat_id is not None and source.from_seq is not None:
        for r in conn.execute(
            "SELECT chunk_id FROM chunks WHERE store_id = %s AND chat_id = %s"
            " AND from_seq <= %s AND to_seq >= %s ORDER BY level LIMIT 3",
            (store_id, source.chat_id, source.from_seq, source.to_seq or source.from_seq),
        ):
            refs.append(("chunk", int(r["chunk_id"])))
    refs += [("item", i) for i in source.fed_by]
    # A shared item said during a person's turn keeps that person's chat as provenance: its
    # chunks (and any feeder) are offered only when whoever the item is for may read them.
    readable = visible(conn, store_id, person, refs)
    refs = [r for r in refs if r in readable]
    ranked: list[list[int]] = []
    for kind in ("item", "chunk"):
        if source.embedding is None:
            ranked.append([])
            continue
        hits = search.candidates(
            conn, [kind], store_id, source.text, source.embedding, person, k + 1
        )[kind]
        hits.sort(key=lambda h: (-(h["lexical"] + h["cos"]), h["id"]))  # as recall ranks
        ranked.append([int(h["id"]) for h in hits[: k + 1]])
    for rank in range(k + 1):
        for kind, ids in zip(("item", "chunk"), ranked, strict=True):
            if rank < len(ids):
                refs.append((kind, ids[rank]))
    unique = [r for r in dict.fromkeys(refs) if r != (source.kind, source.id)][: 3 * k]
    nodes: dict[Ref, LinkNode] = {}
    for kind in ("item", "chunk"):
        ids = [i for kd, i in unique if kd == kind]
        nodes.update({(kind, n.id): n for n, _ in load_nodes(conn, store_id, kind, ids)})
    return [nodes[r] for r in unique if r in nodes]


def lock_items(conn: Conn, store_id: str, ids: Sequence[int]) -> set[int]:
    """The ids that still exist, locked against a delete until the transaction ends."""
    rows = conn.execute(
        "SELECT item_id FROM agent_memory_items WHERE store_id = %s AND item_id = ANY(%s)"
        " FOR SHARE",
        (store_id, sorted(set(ids))),
    )
    return {int(r["item_id"]) for r in rows}


def mark_read(
    conn: Conn,
    store_id: str,
    versions: Sequence[tuple[int, datetime]],
    read_at: datetime,
    run_id: str,
    seen: dict[int, list[int]],
) -> None:
    """Record which version (updated_at) of each item linkgen read, when it read the
    candidates and the level-1 chunks over its turns it saw then (`seen`, covering_chunks);
    a deleted item is skipped."""
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO linkgen_items"
            " (item_id, store_id, item_updated_at, read_at, run_id, chunks_seen)"
            " SELECT item_id, store_id, %s, %s, %s, %s FROM agent_memory_items"
            " WHERE item_id = %s AND store_id = %s"
            " ON CONFLICT (item_id) DO UPDATE SET item_updated_at = excluded.item_updated_at,"
            " read_at = excluded.read_at, run_id = excluded.run_id,"
            " chunks_seen = excluded.chunks_seen",
            [
                (at, read_at, run_id, seen.get(item_id, []), item_id, store_id)
                for item_id, at in versions
            ],
        )


def now(conn: Conn) -> datetime:
    """The database's clock, so read times compare with rows' created_at."""
    return one(conn.execute("SELECT now() AS now").fetchone(), "reading the clock")["now"]


def counts_by_type(conn: Conn, store_id: str) -> list[dict[str, Any]]:
    """[{link_type, n}] over every link of the store."""
    rows = conn.execute(
        "SELECT link_type, count(*) AS n FROM links WHERE store_id = %s"
        " GROUP BY link_type ORDER BY link_type",
        (store_id,),
    )
    return [dict(r) for r in rows]


def edges(conn: Conn, store_id: str) -> list[tuple[Ref, Ref]]:
    """Every link of the store as ((src_kind, src_id), (dst_kind, dst_id))."""
    rows = conn.execute(
        "SELECT src_kind, src_id, dst_kind, dst_id FROM links WHERE store_id = %s",
        (store_id,),
    )
    return [((r["src_kind"], int(r["src_id"])), (r["dst_kind"], int(r["dst_id"]))) for r in rows]
