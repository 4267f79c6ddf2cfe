"""Stores (tenants), their settings and their persons."""

from __future__ import annotations

import re
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from memory_pipelines.core.settings import CARDS, StoreSettings, card_to_json, parse_card
from memory_pipelines.core.settings import parse_settings as _parse
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.store.db import Conn

STORE_ID_HINT = "1-63 characters: lowercase letters, digits, '.', '_' or '-', starting alphanumeric"


def _check_id(store_id: str) -> None:
    if not isinstance(store_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_.-]{0,62}", store_id):
        raise ValidationError("store", f"must be {STORE_ID_HINT}, got {store_id!r}")


def ensure_store(conn: Conn, store_id: str, name: str = "") -> None:
    """Create the store if it does not exist (its settings are the defaults). A store made
    under the id of a deleted one starts with an empty feed: the deleted store's last event
    (`delete_store`, naming who deleted it) is not its new owner's to read."""
    _check_id(store_id)
    made = conn.execute(
        "INSERT INTO stores (store_id, name) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING 1",
        (store_id, name),
    ).fetchone()
    if made is not None:
        conn.execute("DELETE FROM events WHERE store_id = %s", (store_id,))


def require_store(conn: Conn, store_id: str) -> None:
    """NotFound unless the store exists: what readers call instead of creating it."""
    _check_id(store_id)
    if conn.execute("SELECT 1 FROM stores WHERE store_id = %s", (store_id,)).fetchone() is None:
        raise NotFound(
            f"store {store_id!r} does not exist; create it with `memory-pipelines init -s "
            f"{store_id}` or by writing to it"
        )


def get_settings(conn: Conn, store_id: str) -> StoreSettings:
    row = conn.execute("SELECT * FROM stores WHERE store_id = %s", (store_id,)).fetchone()
    if row is None:
        raise NotFound(f"store {store_id!r} does not exist; create it with `memory-pipelines init`")
    return _parse(row)


def get_card(conn: Conn, store_id: str, card: str) -> Any:
    """One settings card of the store (what a search reads on every call: the one column, and
    only its card parsed)."""
    if card not in CARDS:
        raise ValueError(f"unknown settings card {card!r}")
    row = conn.execute(
        sql.SQL("SELECT {} AS card FROM stores WHERE store_id = %s").format(sql.Identifier(card)),
        (store_id,),
    ).fetchone()
    if row is None:
        raise NotFound(f"store {store_id!r} does not exist; create it with `memory-pipelines init`")
    return parse_card(card, row["card"])


def lock_store(conn: Conn, store_id: str) -> None:
    """Lock the store's row until the transaction ends (one settings change at a time)."""
    if (
        conn.execute("SELECT 1 FROM stores WHERE store_id = %s FOR UPDATE", (store_id,)).fetchone()
        is None
    ):
        raise NotFound(f"store {store_id!r} does not exist")


def card_value(card: str, raw: Any) -> Any:
    """A settings card as stored (its JSON, defaults filled in; trust_envelope a bool), or a
    ValidationError naming `card.field` with what is allowed."""
    if card == "trust_envelope":
        if not isinstance(raw, bool):
            raise ValidationError("trust_envelope", f"must be true or false, got {raw!r}")
        return raw
    if card not in CARDS:
        raise ValidationError(
            str(card), f"unknown settings card; allowed: {', '.join(CARDS)}, trust_envelope"
        )
    return card_to_json(parse_card(card, raw))


def update_settings(conn: Conn, store_id: str, cards: dict[str, Any]) -> None:
    """Save the given cards only (validated whole before anything is written): a bad field is
    named as `card.field` with what is allowed, and nothing is saved."""
    if not isinstance(cards, dict):
        raise ValidationError("settings", f"must be an object of cards, got {cards!r}")
    parsed = {
        card: value if card == "trust_envelope" else Jsonb(value)
        for card, value in ((card, card_value(card, raw)) for card, raw in cards.items())
    }
    with conn.transaction():
        for card, value in parsed.items():
            # card names come from the closed CARDS list above, never from the caller's text
            conn.execute(
                sql.SQL("UPDATE stores SET {} = %s WHERE store_id = %s").format(
                    sql.Identifier(card)
                ),
                (value, store_id),
            )


def list_stores(conn: Conn) -> list[str]:
    return [r["store_id"] for r in conn.execute("SELECT store_id FROM stores ORDER BY 1")]


def add_person(conn: Conn, store_id: str, person_id: str, name: str = "") -> None:
    if not isinstance(person_id, str) or not person_id.strip() or len(person_id) > 100:
        raise ValidationError(
            "person", f"must be a non-empty id up to 100 chars, got {person_id!r}"
        )
    conn.execute(
        "INSERT INTO persons (store_id, person_id, name) VALUES (%s, %s, %s)"
        " ON CONFLICT (store_id, person_id) DO UPDATE SET name = EXCLUDED.name"
        " WHERE EXCLUDED.name <> ''",
        (store_id, person_id, name),
    )


def person_exists(conn: Conn, store_id: str, person_id: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM persons WHERE store_id = %s AND person_id = %s", (store_id, person_id)
        ).fetchone()
        is not None
    )


def require_person(conn: Conn, store_id: str, person_id: str | None, field: str = "person") -> None:
    """ValidationError naming `field` unless the person is one of the store's (None, for shared
    only, passes). The store's other persons are not named: a caller limited to one person
    must not learn who else the store holds."""
    if person_id is not None and not person_exists(conn, store_id, person_id):
        raise ValidationError(
            field,
            f"{person_id!r} is not a person of store {store_id!r}, or null for shared; add"
            f" the person first (PUT /v1/stores/{store_id}/persons/{person_id}, `memory-pipelines"
            f" persons add -s {store_id} {person_id}` or Memory.add_person)",
        )


def list_persons(conn: Conn, store_id: str) -> list[dict[str, str]]:
    """The store's persons, [{person, name}] by id."""
    rows = conn.execute(
        "SELECT person_id AS person, name FROM persons WHERE store_id = %s ORDER BY 1",
        (store_id,),
    )
    return [dict(r) for r in rows]


def drop_store(conn: Conn, store_id: str) -> None:
    """Delete a store and every row of it (scratch stores of evaluations and tests), except
    its read audit, which is append-only and outlives the store. The responses kept for
    retries of its writes go too: they hold what was written, and a store made again under
    the id starts empty."""
    with conn.transaction():
        for table in ("events", "model_calls", "extraction_passes", "idempotent_requests"):
            conn.execute(
                sql.SQL("DELETE FROM {} WHERE store_id = %s").format(sql.Identifier(table)),
                (store_id,),
            )
        conn.execute("DELETE FROM stores WHERE store_id = %s", (store_id,))


def overviews(conn: Conn, store_ids: list[str]) -> list[dict[str, Any]]:
    """Store rows (settings cards included) with when maintenance last finished."""
    return conn.execute(
        "SELECT s.*, (SELECT max(finished_at) FROM maintenance_passes m"
        " WHERE m.store_id = s.store_id) AS last_maintenance"
        " FROM stores s WHERE s.store_id = ANY(%s) ORDER BY s.store_id",
        (store_ids,),
    ).fetchall()
