"""Stores as an organisation sees them: the console's Stores list, one store's page with its
settings cards and extraction passes, saving one card, deleting a store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memory_pipelines.api.access import Refused, authorize, reachable_stores, require
from memory_pipelines.api.audit import audited
from memory_pipelines.api.saving import skill_text
from memory_pipelines.core.access import Principal
from memory_pipelines.core.records import text_field
from memory_pipelines.core.settings import CARDS, StoreSettings, card_to_json, parse_settings
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.store import events as events_db
from memory_pipelines.store import extraction as extraction_db
from memory_pipelines.store import jobs as jobs_db
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Conn, Database

PASSES_SHOWN = 20  # extraction passes on a store's page (its chart of counts)


@dataclass(frozen=True)
class StoreDetail:
    """One store as its page shows it: the overview of the Stores list, its settings (the
    defaults where a card was never saved) and its last extraction passes, oldest first."""

    overview: dict[str, Any]
    settings: StoreSettings
    passes: list[dict[str, Any]]
    # whether decay is active for the store: maintenance archives only what decay says faded
    decay_active: bool = False

    @property
    def last_pass(self) -> dict[str, Any] | None:
        return self.passes[-1] if self.passes else None


def list_stores(db: Database, reader: Principal, endpoint: str) -> list[dict[str, Any]]:
    """The stores the reader may use, each with its name, whether it runs on the default
    settings, whether extraction and maintenance are on and when maintenance last ran.
    Audited (who listed them, when): the list returns no record, so no record ids."""
    store_ids = reachable_stores(db, reader)

    def read(conn: Conn) -> tuple[list[dict[str, Any]], list[int]]:
        return [_overview(r) for r in stores_db.overviews(conn, store_ids)], []

    return audited(db, reader, endpoint, None, {}, read)


def store_detail(db: Database, reader: Principal, store_id: str, endpoint: str) -> StoreDetail:
    """A store of the reader's organisation with its settings and last extraction passes.
    NotFound for a store of another organisation (worded as one that does not exist);
    Refused unless the reader may administer its settings. Audited, with no record ids."""
    require(db, reader, "administer_settings", store_id)

    def read(conn: Conn) -> tuple[StoreDetail, list[int]]:
        rows = stores_db.overviews(conn, [store_id])
        if not rows:
            raise NotFound(f"store {store_id!r} does not exist")
        passes = extraction_db.recent_passes(conn, store_id, PASSES_SHOWN)
        decay = jobs_db.is_active(conn, store_id, "decay")
        return StoreDetail(_overview(rows[0]), parse_settings(rows[0]), passes, decay), []

    return audited(db, reader, endpoint, store_id, {}, read)


def settings_of(db: Database, reader: Principal, store_id: str) -> StoreSettings:
    """A store's settings (no record is read, so nothing is audited); NotFound for a store of
    another organisation, Refused unless the reader may administer its settings."""
    require(db, reader, "administer_settings", store_id)
    with db.connection() as conn:
        return stores_db.get_settings(conn, store_id)


def save_card(
    db: Database, reader: Principal, store_id: str, card: str, raw: dict[str, Any], *, actor: str
) -> dict[str, Any]:
    """Save one settings card of a store for a reader allowed to administer its settings (the
    other cards are left as they are; a field of the card not in `raw` keeps its value), as
    `change_settings` does: a bad field raises ValidationError naming it as `card.field` with
    what is allowed, and nothing is saved. The change is a `configure` event naming the actor.
    NotFound for a store of another organisation."""
    if card not in CARDS:
        raise ValidationError("card", f"must be one of {', '.join(CARDS)}, got {card!r}")
    require(db, reader, "administer_settings", store_id)
    return change_settings(db, store_id, {card: raw}, actor=actor)


def delete_store(db: Database, store_id: str, *, actor: str, how: str = "") -> None:
    """Really delete a store with every record, turn and setting of it; the read audit stays.
    Refused while its extraction is on (ValidationError on `extraction.enabled`: switch
    extraction off first; `how` says where, for the caller's users). The deletion is a
    `delete_store` event naming the actor."""
    text_field("actor", actor, max_len=200, required=True, one_line=True)
    with db.transaction() as conn:
        if stores_db.get_settings(conn, store_id).extraction.enabled:
            raise ValidationError(
                "extraction.enabled",
                f"store {store_id!r} has extraction on, so it cannot be deleted: switch"
                f" extraction off first{how}",
            )
        stores_db.drop_store(conn, store_id)
        events_db.record_event(conn, store_id, "delete_store", None, actor)


def deleted_by_actor(db: Database, store_id: str, actor_prefix: str) -> bool:
    """Whether an actor whose name starts with `actor_prefix` deleted the store (the console's
    Stores page names a deleted store only when one of the organisation's administrators
    deleted it: an address with any text in `?deleted=` had been shown as a notice)."""
    with db.connection() as conn:
        return events_db.deleted_by(conn, store_id, actor_prefix)


def delete_store_as(db: Database, reader: Principal, store_id: str, *, actor: str) -> None:
    """`delete_store` for a principal of the store's organisation allowed to delete memory in
    it (NotFound for another organisation's store)."""
    require(db, reader, "delete_memory", store_id)
    delete_store(db, store_id, actor=actor)


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


def _keys_of_the_store(conn: Conn, store: str, new: dict[str, Any], old: dict[str, Any]) -> None:
    """Extraction's "only these keys", each newly listed key one of the store's organisation
    (only its keys write conversations there): a typo was saved, and extraction then read
    nothing, without a word (a console audit). Another organisation's key reads as unknown,
    as a typo does."""
    added = [
        (i, k) for i, k in enumerate(new.get("keys") or []) if k not in (old.get("keys") or [])
    ]
    if not added:
        return
    owner = orgs_db.store_owner(conn, store)
    orgs = keys_db.orgs_of(conn, {k for _, k in added})
    for i, key in added:
        if owner is None or orgs.get(key) != owner:
            raise ValidationError(
                f"extraction.keys[{i}]",
                f"no key of this store's organisation has id {key!r}; `memory-pipelines keys"
                " list --org ORG` shows them (the 12-character id, not the secret)",
            )


def change_settings(
    db: Database, store: str, changes: dict[str, Any], *, actor: str = ""
) -> dict[str, Any]:
    """Change some cards, field by field (a field not sent keeps its value; trust_envelope is a
    card of one value), all or none: a bad value is a ValidationError naming `card.field` and
    nothing is saved. Returns every card after the change. With an `actor` the change is also a
    `configure` event naming it and the cards changed (the console's saves); a card sent as it
    stands is not written, and changes nothing."""
    if not isinstance(changes, dict) or not changes:
        raise ValidationError("settings", "must name at least one card to change")
    if actor:
        text_field("actor", actor, max_len=200, required=True, one_line=True)
    with db.transaction() as conn:
        stores_db.lock_store(conn, store)
        current = settings_json(stores_db.get_settings(conn, store))
        merged: dict[str, Any] = {}
        for card, fields in changes.items():
            if card in CARDS and isinstance(fields, dict):
                merged[card] = {**current[card], **fields}
            else:  # trust_envelope, an unknown card or a card that is not an object: named
                merged[card] = fields
        # Only the cards whose values change are written: a Save of a card as it stands is no
        # configuration (it had turned a store on defaults into a configured one, with an
        # event, a console audit's finding). Every card is validated first.
        values = {card: stores_db.card_value(card, raw) for card, raw in merged.items()}
        if "extraction" in values:
            _keys_of_the_store(conn, store, values["extraction"], current["extraction"])
        changed = {c: raw for c, raw in merged.items() if values[c] != current.get(c)}
        if changed:
            stores_db.update_settings(conn, store, changed)
            if actor:
                events_db.record_event(
                    conn, store, "configure", None, actor, {"cards": sorted(changed)}
                )
        return settings_json(stores_db.get_settings(conn, store))


def memory_skill(db: Database, reader: Principal, store_id: str) -> str:
    """The _memory skill for the store (core/skill.py): the save policy as an agent is taught it,
    with the store's budget per turn and record types. No record is read, so nothing is
    audited. NotFound for a store of another organisation; Refused for a key that can do
    nothing in the store."""
    decision = authorize(db, reader, "write_memory", store_id, None)
    if not decision.allowed and not reader.reaches(store_id):
        raise Refused(decision)
    with db.connection() as conn:
        return skill_text(stores_db.get_settings(conn, store_id))
