"""Recall: read-only search over one store (memory items, turns, chunks), hybrid and fused."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from datetime import UTC, datetime
from typing import Any

from memory_pipelines.api.ranked import rank_candidates
from memory_pipelines.api.refs import Ref, parse_ref, period_key
from memory_pipelines.core import ranking
from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.records import parse_time, text_field
from memory_pipelines.core.types import (
    Chunk,
    DrillDown,
    Hit,
    Item,
    Neighbor,
    Passage,
    PeriodPage,
    Turn,
)
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import DEFAULT_MODEL, Embedder, get_embedder
from memory_pipelines.models.factory import reranker_backend, unmade_call
from memory_pipelines.store import browse as browse_db
from memory_pipelines.store import chunks as chunks_db
from memory_pipelines.store import entities as entities_db
from memory_pipelines.store import hit_texts, item_reads, visibility
from memory_pipelines.store import search as search_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.calls import record_calls
from memory_pipelines.store.db import Conn, Database, get_database

SCOPES: dict[str, tuple[str, ...]] = {
    "agent": ("item",),
    "history": ("turn", "chunk"),
    "basic": ("document",),
    "email": ("email",),
}
ALL_SCOPES: tuple[str, ...] = tuple(SCOPES)
MAX_K = 200
MAX_QUERY = 10_000  # characters; the embedder reads the first 256 word pieces anyway


class Recall:
    """Read-only recall bound to one store. `person` limits memory items to that person's and
    the shared ones; without a person only shared items are returned."""

    def __init__(
        self,
        store_id: str,
        *,
        db: Database | None = None,
        embedder: Embedder | None = None,
        dsn: str | None = None,
        model: str = DEFAULT_MODEL,
    ) -> None:
        self.store_id = store_id
        self.db = db or get_database(dsn)
        self._embedder = embedder
        self._model = model

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder(self._model)
        return self._embedder

    def search(
        self,
        query: str,
        scopes: Sequence[str] = ("agent", "history"),
        *,
        person: str | None = None,
        k: int = 10,
        touch: bool = True,
        request_id: str | None = None,
        on_read: Callable[[Conn, list[Hit]], None] | None = None,
        rerank: bool = True,
    ) -> list[Hit]:
        """The k best records for a query over the scopes (agent: memory items; history:
        turns and chunks; basic: documents; email: emails).

        Candidates per kind come from the words of the query (BM25), its meaning (cosine) and
        the graph (records naming an entity the question names); one score ranks them all
        (core/ranking.py), then the Search card's optional reranker reorders the best 2k (a
        metered model call, recorded under `request_id`). With the card's knowledge graph off,
        entities play no part. Only current items,
        shared or the person's, and only shared or the person's chats are read. Returned memory
        items count as recalled (access_count and last_recalled_at go up), unless `touch` is
        False (auto-recall counts only what it injects). `on_read(conn, hits)` runs in the
        search's own transaction before it returns (the HTTP API audits the read there: if it
        raises, the search returns nothing and counts nothing). `rerank` False: no reranker
        whatever the card says (auto-recall makes no model call).
        """
        text_field("query", query, max_len=MAX_QUERY, required=True)
        id_field("person", person, nullable=True)
        if isinstance(scopes, str) or not isinstance(scopes, Sequence):
            raise ValidationError("scopes", f"must be a list of scopes, got {scopes!r}")
        bad = [s for s in scopes if s not in SCOPES]
        if bad or not scopes:
            raise ValidationError(
                "scopes", f"must be some of {', '.join(SCOPES)}, got {list(scopes)!r}"
            )
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise ValidationError("k", f"must be 1-{MAX_K}, got {k!r}")
        kinds = [kind for s in scopes for kind in SCOPES[s]]
        # The Search card and the question's speakers first, on a connection given back
        # before embedding: under concurrent searches the embedder is a queue, and a search
        # waiting in it must not hold a pooled connection (embedding beside the first reads
        # saved 1.5 ms alone and starved the pool at 16 clients).
        capitalised = ranking.capitalised(query)
        with self.db.connection() as conn:
            card = stores_db.get_card(conn, self.store_id, "search")
            spoken = (
                entities_db.speakers_among(conn, self.store_id, capitalised, person)
                if card.knowledge_graph
                else []
            )
        depth = max(2 * k, 30)

        def before_vector(conn: Conn) -> tuple[list[str], search_db.Words]:
            names = (
                entities_db.entity_names(conn, self.store_id, capitalised)
                if card.knowledge_graph
                else []
            )
            return names, search_db.words(conn, kinds, self.store_id, query, person, depth)

        # What needs no vector (the question's entity names, its candidates from the BM25
        # indexes) is read on a spare connection while the query is embedded (None: no
        # connection was free, and the candidates' connection reads it after).
        side = search_db.beside(self.db.spare, before_vector)
        qvec = self.embedder.embed_query(ranking.without_names(query, spoken))
        found = side.result()
        with self.db.connection() as conn, conn.transaction() if on_read else nullcontext():
            ranked = rank_candidates(
                conn,
                self.store_id,
                query,
                qvec,
                kinds,
                person,
                depth,
                datetime.now(UTC),
                graph=card.knowledge_graph,
                spare=self.db.spare,
                names=found[0] if found else None,
                found_words=found[1] if found else None,
            )
            reranker = card.reranker if rerank else None
            top = ranked[: 2 * k if reranker else k]
            ids: dict[str, list[int]] = {}
            for c, _ in top:
                ids.setdefault(c.kind, []).append(c.id)
            rows = hit_texts.fetch_texts(conn, self.store_id, ids, qvec)
            hits = _redact_hits(
                conn,
                self.store_id,
                person,
                [_hit(c.kind, rows[c.key], s) for c, s in top if c.key in rows],
            )
            if reranker:
                hits = self._rerank(conn, reranker, query, hits, request_id)[:k]
            if touch:
                item_reads.touch_items(conn, [h.id for h in hits if h.kind == "item"])
            if on_read is not None:
                on_read(conn, hits)
        return hits

    def _rerank(
        self, conn: Conn, model: str, query: str, hits: list[Hit], request_id: str | None
    ) -> list[Hit]:
        """The hits in the reranker's order; its call is recorded in model_calls. A reranker
        that fails leaves the search's own order (the call is recorded as failed), and so does
        one that cannot be reached at all: a model named on the card while the server has no
        endpoint configured (MEMORY_LLM_BASE_URL)."""
        request = request_id or f"search:{uuid.uuid4().hex}"
        try:
            models = Models(reranker_backend(model, self.embedder))
        except ValueError:
            record_calls(conn, self.store_id, [unmade_call("rerank", model)], request)
            return hits
        try:
            order = models.rerank(query, [h.text for h in hits])
        except Exception:  # an unreachable or confused model never costs the caller the search
            order = list(range(len(hits)))
        record_calls(conn, self.store_id, models.drain(), request)
        return [hits[i] for i in order]

    def hydrate(
        self,
        hits: Sequence[Ref],
        *,
        person: str | None = None,
        on_read: Callable[[Conn, list[str]], None] | None = None,
    ) -> list[Item | Turn | Chunk | Passage]:
        """Full records for hits (or refs), in one read, in the order given; records the caller
        may not read are left out. Each is its kind's record type (a document's or an email's
        a Passage), whose `kind` and `id` name it. Reading what a search returned is not a
        second recall: only search, by_period and neighbors count (access_count).
        `on_read(conn, refs)`: see drill_down."""
        id_field("person", person, nullable=True)
        if isinstance(hits, str) or not isinstance(hits, Sequence):
            raise ValidationError("hits", f"must be a list of hits or refs, got {hits!r}")
        refs = [parse_ref(h) for h in hits]
        with self.db.connection() as conn, conn.transaction() if on_read else nullcontext():
            found = self._found(conn, refs, person)
            shown = [(k, i) for k, i in refs if (k, i) in found]
            if on_read is not None:  # as refs name them ("document:3", not its table's kind)
                on_read(conn, [f"{k}:{i}" for k, i in dict.fromkeys(shown)])
            return [found[ref] for ref in shown]

    def _not_found(self, kind: str, rid: int, person: str | None) -> NotFound:
        """A record this reader may not open, worded as one that does not exist, and saying
        whom it was read as (the same words whether it exists or not)."""
        whom = (
            "the shared records (a person's need ?person=, or person= in Python)"
            if person is None
            else f"person {person!r} (their records and the shared)"
        )
        return NotFound(
            f"{kind} {rid} does not exist in store {self.store_id!r} or is not readable as {whom}"
        )

    def _hydrate(
        self, conn: Conn, refs: list[tuple[str, int]], person: str | None
    ) -> list[Item | Turn | Chunk | Passage]:
        found = self._found(conn, refs, person)
        return [found[(k, i)] for k, i in refs if (k, i) in found]

    def _found(
        self, conn: Conn, refs: list[tuple[str, int]], person: str | None
    ) -> dict[tuple[str, int], Item | Turn | Chunk | Passage]:
        """The records of these refs the reader may read, by ref, items redacted for them."""
        found = browse_db.hydrate(conn, self.store_id, refs, person)
        items = [r for r in found.values() if isinstance(r, Item)]
        for item in visibility.redact_items(conn, self.store_id, person, items):
            found[("item", item.item_id)] = item
        return found

    def by_period(
        self,
        start: datetime | str,
        end: datetime | str,
        *,
        person: str | None = None,
        limit: int = 200,
        after: str | None = None,
        on_read: Callable[[Conn, list[str]], None] | None = None,
    ) -> PeriodPage:
        """Memory items (by valid_from), turns (by created_at) and chunks (by period_start)
        from start up to end, merged in time order, a page at a time (PeriodPage: `records`
        and `next`). `next` is None on the last page; otherwise pass it as `after` for the next
        page (nothing is ever cut off silently). `on_read(conn, refs)`: see drill_down."""
        id_field("person", person, nullable=True)
        t0, t1 = parse_time("start", start), parse_time("end", end)
        if t0 is None or t1 is None or t1 <= t0:
            raise ValidationError("end", f"must be after start, got {start!r} .. {end!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 5000:
            raise ValidationError("limit", f"must be 1-5000, got {limit!r}")
        key = period_key(after)
        with self.db.connection() as conn, conn.transaction() if on_read else nullcontext():
            rows = browse_db.by_period(conn, self.store_id, t0, t1, person, limit + 1, key)
            page = rows[:limit]
            item_reads.touch_items(conn, [r.id for r in page if r.kind == "item"])
            if on_read is not None:
                on_read(conn, [f"{r.kind}:{r.id}" for r in page])
        last = page[-1] if len(rows) > limit else None
        cursor = f"{last.at.isoformat()}|{last.kind}|{last.id}" if last else None
        return PeriodPage(records=page, next=cursor)

    def neighbors(
        self,
        ref: Ref,
        *,
        person: str | None = None,
        on_read: Callable[[Conn, list[str]], None] | None = None,
    ) -> list[Neighbor]:
        """Forward links of a record plus the links into it (backlinks), with the other end's
        name resolved - `at` is when the other end was true or said (an item's valid_from, a
        turn's time, a chunk's period start), `state` an item's state (a superseded wording is
        still a neighbour). `on_read(conn, refs)` gets every neighbour returned: see
        drill_down."""
        kind, rid = parse_ref(ref)
        id_field("person", person, nullable=True)
        with self.db.connection() as conn, conn.transaction() if on_read else nullcontext():
            if not visibility.visible(conn, self.store_id, person, [(kind, rid)]):
                raise self._not_found(kind, rid, person)
            rows = browse_db.neighbors(conn, self.store_id, kind, rid, person)
            # a replaced or archived wording is shown, not recalled: only current ones count
            current = [r.id for r in rows if r.kind == "item" and r.state == "current"]
            item_reads.touch_items(conn, current)
            if on_read is not None:  # what is returned: the neighbours, not the record asked
                on_read(conn, [f"{r.kind}:{r.id}" for r in rows])
        return rows

    def drill_down(
        self,
        ref: Ref,
        *,
        person: str | None = None,
        on_read: Callable[[Conn, list[str]], None] | None = None,
    ) -> DrillDown:
        """Open a record one level: a chunk gives its children (chunks, or raw turns under
        level 1); a turn gives its trace_ref (to open its run); an item gives the turns it
        came from. Never a dead end: every chunk has children. As `person` reads it (their
        records and the shared): anything else is NotFound, as a record that does not exist.
        `on_read(conn, refs)` runs in the read's own transaction with the record and every
        child shown (the HTTP API audits it there: if it raises, nothing is returned)."""
        kind, rid = parse_ref(ref)
        id_field("person", person, nullable=True)
        with self.db.connection() as conn, conn.transaction() if on_read else nullcontext():
            found = self._hydrate(conn, [(kind, rid)], person)
            if not found:
                raise self._not_found(kind, rid, person)
            record = found[0]
            if isinstance(record, Chunk):
                children = chunks_db.children_of(conn, rid, self.store_id)
                out = DrillDown(ref=f"chunk:{rid}", level=record.level, children=children)
            elif isinstance(record, Turn):
                out = DrillDown(ref=f"turn:{rid}", trace_ref=record.trace_ref, turn=record)
            # hydrate took out the chat of an item derived in a chat the reader may not see
            elif isinstance(record, Item) and record.chat_id is not None and record.from_seq:
                turns = turns_db.turns_between(
                    conn, record.chat_id, record.from_seq, record.to_seq or record.from_seq
                )
                out = DrillDown(ref=f"item:{rid}", children=list(turns))
            else:
                out = DrillDown(ref=f"{kind}:{rid}")
            if on_read is not None:
                on_read(conn, [out.ref, *(f"{c.kind}:{c.id}" for c in out.children)])
        return out


def _redact_hits(conn: Conn, store_id: str, person: str | None, hits: list[Hit]) -> list[Hit]:
    """Take out of the item hits every reference the reader may not see (store/visibility)."""
    items = [h for h in hits if h.kind == "item"]
    redacted = iter(visibility.redact_items(conn, store_id, person, items))
    return [next(redacted) if h.kind == "item" else h for h in hits]


def _hit(kind: str, row: dict[str, Any], score: float) -> Hit:
    base = {"id", "text", "at", "chat_id", "from_seq", "to_seq"}
    return Hit(
        kind=kind,
        id=int(row["id"]),
        score=score,
        text=row["text"],
        at=row.get("at"),
        chat_id=row.get("chat_id"),
        from_seq=row.get("from_seq"),
        to_seq=row.get("to_seq"),
        extra={k: v for k, v in row.items() if k not in base},
    )
