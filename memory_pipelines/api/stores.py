"""Stores as an organisation sees them: the console's Stores list."""

from __future__ import annotations

from typing import Any

from memory_pipelines.api.access import reachable_stores
from memory_pipelines.api.audit import audited
from memory_pipelines.core.access import Principal
from memory_pipelines.core.settings import CARDS, parse_settings
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Conn, Database


def list_stores(db: Database, reader: Principal, endpoint: str) -> list[dict[str, Any]]:
    """The stores the reader may use, each with its name, whether it runs on the default
    settings, whether extraction and maintenance are on and when maintenance last ran.
    Audited (who listed them, when): the list returns no record, so no record ids."""
    store_ids = reachable_stores(db, reader)

    def read(conn: Conn) -> tuple[list[dict[str, Any]], list[int]]:
        return [_overview(r) for r in stores_db.overviews(conn, store_ids)], []

    return audited(db, reader, endpoint, None, {}, read)


def _overview(row: dict[str, Any]) -> dict[str, Any]:
    settings = parse_settings(row)
    return {
        "store": row["store_id"],
        "name": row["name"],
        "organisation": row["org_id"],
        "default_settings": not any(row.get(card) for card in CARDS),
        "extraction": settings.extraction.enabled,
        "maintenance": settings.maintenance.enabled,
        "last_maintenance": row["last_maintenance"],
        "created_at": row["created_at"],
    }
