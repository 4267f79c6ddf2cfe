"""Stores as an organisation sees them: the console's Stores list."""

from __future__ import annotations

from typing import Any

from memory_pipelines.api.access import reachable_stores
from memory_pipelines.api.audit import audited
from memory_pipelines.core.access import Principal
from memory_pipelines.core.settings import CARDS, StoreSettings, card_to_json, parse_settings
from memory_pipelines.errors import ValidationError
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


def settings_json(settings: StoreSettings) -> dict[str, Any]:
    """Every card of a store's settings as JSON (defaults where nothing was configured)."""
    out: dict[str, Any] = {card: card_to_json(getattr(settings, card)) for card in CARDS}
    out["trust_envelope"] = settings.trust_envelope
    return out


def read_settings(db: Database, reader: Principal, store: str, endpoint: str) -> dict[str, Any]:
    """The store's settings cards (audited: who read them; no record is returned)."""

    def read(conn: Conn) -> tuple[dict[str, Any], list[int]]:
        return settings_json(stores_db.get_settings(conn, store)), []

    return audited(db, reader, endpoint, store, {}, read)


def change_settings(db: Database, store: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Change some cards, field by field (a field not sent keeps its value; trust_envelope is a
    card of one value), all or none: a bad value is a ValidationError naming `card.field` and
    nothing is saved. Returns every card after the change."""
    if not isinstance(changes, dict) or not changes:
        raise ValidationError("settings", "must name at least one card to change")
    with db.transaction() as conn:
        stores_db.lock_store(conn, store)
        current = settings_json(stores_db.get_settings(conn, store))
        merged: dict[str, Any] = {}
        for card, fields in changes.items():
            if card in CARDS and isinstance(fields, dict):
                merged[card] = {**current[card], **fields}
            else:  # trust_envelope, an unknown card or a card that is not an object: named
                merged[card] = fields
        stores_db.update_settings(conn, store, merged)
        return settings_json(stores_db.get_settings(conn, store))
