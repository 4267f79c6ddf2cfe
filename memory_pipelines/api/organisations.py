"""Organisations: create them, set their ceiling and policy, give them stores."""

from __future__ import annotations

import re
from typing import Any

from memory_pipelines.api.access import organisation_of
from memory_pipelines.core.access import check_within, parse_ceiling, parse_policy, policy_to_json
from memory_pipelines.core.records import text_field
from memory_pipelines.core.settings import card_to_json
from memory_pipelines.errors import NotFound, ValidationError
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database

ORG_ID_HINT = "1-63 characters: lowercase letters, digits, '.', '_' or '-', starting alphanumeric"


def create_organisation(
    db: Database,
    org_id: str,
    *,
    name: str = "",
    parent: str | None = None,
    ceiling: list[str] | tuple[str, ...] = (),
    policy: Any = (),
) -> dict[str, Any]:
    """Create an organisation under `parent` (None: at the top). Its ceiling may not exceed
    any organisation's above it; its policy is a list of Permit/Deny rules."""
    if not isinstance(org_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_.-]{0,62}", org_id):
        raise ValidationError("organisation", f"must be {ORG_ID_HINT}, got {org_id!r}")
    name = text_field("name", name, max_len=200, one_line=True)
    caps = parse_ceiling(ceiling)
    rules = parse_policy(list(policy))
    with db.transaction() as conn:
        if orgs_db.exists(conn, org_id):
            raise ValidationError("organisation", f"{org_id!r} exists already")
        if parent is not None:
            ancestors = [organisation_of(r) for r in _chain(conn, parent, "parent")]
            check_within(caps, ancestors)
        orgs_db.create(conn, org_id, name, parent, sorted(caps), policy_to_json(rules))
        return orgs_db.chain(conn, org_id)[0]


def set_ceiling(db: Database, org_id: str, ceiling: list[str] | tuple[str, ...]) -> list[str]:
    """Replace the organisation's permitted capabilities. It may not exceed any ceiling above;
    narrowing it narrows every organisation below at once (decisions read every ceiling up)."""
    caps = parse_ceiling(ceiling)
    with db.transaction() as conn:
        chain = [organisation_of(r) for r in _chain(conn, org_id, "organisation")]
        check_within(caps, chain[1:])
        orgs_db.set_ceiling(conn, org_id, sorted(caps))
    return sorted(caps)


def set_policy(db: Database, org_id: str, policy: Any) -> list[dict[str, Any]]:
    """Replace the organisation's policy (validated whole first; nothing half-written)."""
    rules = policy_to_json(parse_policy(policy))
    with db.transaction() as conn:
        _chain(conn, org_id, "organisation")
        orgs_db.set_policy(conn, org_id, rules)
    return rules


def assign_store(db: Database, store_id: str, org_id: str) -> None:
    """Make `org_id` the owner of an existing store (a store belongs to one organisation)."""
    with db.transaction() as conn:
        _chain(conn, org_id, "organisation")
        if orgs_db.store_owner(conn, store_id) is None:
            raise ValidationError("store", f"{store_id!r} does not exist")
        orgs_db.assign_store(conn, store_id, org_id)
        # Extraction's "only these keys" keeps only the new owner's: the former owner's keys
        # can no longer write there, and their ids are not the new owner's to read. With none
        # left, extraction is off (an empty list would read every key's conversations).
        extraction = stores_db.get_settings(conn, store_id).extraction
        if extraction.keys:
            orgs = keys_db.orgs_of(conn, set(extraction.keys))
            kept = [k for k in extraction.keys if orgs.get(k) == org_id]
            if kept != list(extraction.keys):
                card = {**card_to_json(extraction), "keys": kept}
                card["enabled"] = bool(kept) and extraction.enabled
                stores_db.update_settings(conn, store_id, {"extraction": card})


def list_organisations(db: Database) -> list[dict[str, Any]]:
    """Every organisation with its parent, ceiling, policy and counts of stores and keys."""
    with db.connection() as conn:
        return orgs_db.list_all(conn)


def _chain(conn: Any, org_id: str, field: str) -> list[dict[str, Any]]:
    try:
        return orgs_db.chain(conn, org_id)
    except NotFound:
        raise ValidationError(field, f"organisation {org_id!r} does not exist") from None


def permitted_capabilities(db: Database, org_id: str) -> dict[str, Any]:
    """What the console's Settings > Permitted capabilities shows an administrator of the
    organisation: its own ceiling (`own`) and who sets it (`set_by`: the organisation above,
    None: the operator), and each organisation directly below it with its ceiling
    (`children`), which this organisation's administrators set."""
    with db.connection() as conn:
        chain = [organisation_of(r) for r in _chain(conn, org_id, "organisation")]
        children = orgs_db.children(conn, org_id)
    return {
        "org_id": org_id,
        "own": sorted(chain[0].ceiling),
        "set_by": chain[0].parent,
        "children": [
            {"org_id": c["org_id"], "ceiling": sorted(c["ceiling"] or [])} for c in children
        ],
    }


def set_child_ceiling(
    db: Database, parent_id: str, child_id: str, ceiling: list[str] | tuple[str, ...]
) -> list[str]:
    """Set the ceiling of an organisation directly below `parent_id`, as its administrator (the
    console): NotFound, worded as for one that does not exist, for any other organisation; a
    ceiling beyond the ones above it is refused (set_ceiling)."""
    with db.connection() as conn:
        below = {c["org_id"] for c in orgs_db.children(conn, parent_id)}
    if child_id not in below:
        raise NotFound(f"organisation {child_id!r} does not exist")
    return set_ceiling(db, child_id, ceiling)
