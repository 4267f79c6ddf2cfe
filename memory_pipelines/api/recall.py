"""Recall: read-only search over one store (memory items, turns, chunks), hybrid and fused."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, cast

from memory_pipelines.core.ranking import rrf
from memory_pipelines.errors import ValidationError
from memory_pipelines.models.embedder import DEFAULT_MODEL, Embedder, get_embedder
from memory_pipelines.store import items as items_db
from memory_pipelines.store import search as search_db
from memory_pipelines.store.db import Database, get_database

SCOPES: dict[str, tuple[str, ...]] = {"agent": ("item",), "history": ("turn", "chunk")}
MAX_K = 200


@dataclass
class Hit:
    kind: str  # item, turn or chunk
    id: int
    score: float
    text: str
    at: datetime | None = None
    chat_id: int | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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
    ) -> list[Hit]:
        """The k best records for a query: lexical and vector candidates per kind, fused by
        reciprocal rank. Returned memory items count as recalled (access_count goes up)."""
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query", "is required: the text to search for")
        bad = [s for s in scopes if s not in SCOPES]
        if bad or not scopes:
            raise ValidationError(
                "scopes", f"must be some of {', '.join(SCOPES)}, got {list(scopes)!r}"
            )
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise ValidationError("k", f"must be 1-{MAX_K}, got {k!r}")
        kinds = [kind for s in scopes for kind in SCOPES[s]]
        qvec = self.embedder.embed_one(query)
        depth = max(2 * k, 30)
        lists: list[list[tuple[str, int]]] = []
        with self.db.connection() as conn:
            for kind in kinds:
                lex = search_db.lexical(conn, kind, self.store_id, query, person, depth)
                vec = search_db.vector(conn, kind, self.store_id, qvec, person, depth)
                lists.append([(kind, i) for i, _ in lex])
                lists.append([(kind, i) for i, _ in vec])
            fused = [(cast(tuple[str, int], key), score) for key, score in rrf(lists)[:k]]
            ids: dict[str, list[int]] = {}
            for (kind, rid), _ in fused:
                ids.setdefault(kind, []).append(rid)
            rows = search_db.fetch_texts(conn, self.store_id, ids)
            hits = [_hit(key[0], rows[key], score) for key, score in fused if key in rows]
            items_db.touch_items(conn, ids.get("item", []))
        return hits


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
