"""`memory-pipelines orgs ...` (organisations: ceiling, policy, stores) and `keys ...` (API
keys: create, list, revoke), and `serve` (the HTTP API)."""

from __future__ import annotations

import json
from typing import Any

import click

from memory_pipelines.core.access import ACTIONS, CAPABILITIES

POLICY_HELP = (
    'Rules as JSON: [{"effect": "permit"|"deny", "actions": [...], "stores": [...], '
    f'"persons": [...]}}]; actions: {", ".join(ACTIONS)}.'
)


def _policy(
    raw: str | None,
    permit: str | None,
    deny: str | None,
    stores: tuple[str, ...],
    persons: tuple[str, ...],
) -> list[dict[str, Any]]:
    """Rules from JSON, or from --permit/--deny lists limited by --store/--person."""
    if raw is not None:
        if permit or deny:
            raise click.UsageError("give the policy as JSON or with --permit/--deny, not both")
        try:
            rules = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"not valid JSON ({exc.msg})", param_hint="POLICY") from None
        return rules if isinstance(rules, list) else [rules]
    rules = []
    for effect, names in (("deny", deny), ("permit", permit)):
        if names:
            rule: dict[str, Any] = {
                "effect": effect,
                "actions": [a.strip() for a in names.split(",") if a.strip()],
            }
            if stores:
                rule["stores"] = list(stores)
            if persons:
                rule["persons"] = list(persons)
            rules.append(rule)
    return rules


rule_options = [
    click.option(
        "--permit", default=None, help=f"Actions to permit, comma-separated: {', '.join(ACTIONS)}."
    ),
    click.option("--deny", default=None, help="Actions to deny, comma-separated."),
    click.option(
        "--store", "stores", multiple=True, help="Limit the rules to this store (repeat)."
    ),
    click.option(
        "--person", "persons", multiple=True, help="Limit the rules to this person (repeat)."
    ),
]


def with_rule_options(f: Any) -> Any:
    for option in reversed(rule_options):
        f = option(f)
    return f


def _db() -> Any:
    from memory_pipelines.store.db import get_database

    return get_database()


@click.group("orgs")
def orgs_group() -> None:
    """Organisations own stores and keys. Ceiling: the capabilities permitted to it and
    everything below it (knowledge; memory needs knowledge). Policy: Permit/Deny rules every
    key of the organisation is bounded by."""


@orgs_group.command("create")
@click.argument("org")
@click.option("--name", default="", help="A readable name.")
@click.option("--parent", default=None, help="The organisation above it (bounds its ceiling).")
@click.option(
    "--ceiling",
    default="knowledge,memory",
    show_default=True,
    help=f"Permitted capabilities, comma-separated ({', '.join(CAPABILITIES)}); '' for none.",
)
@click.option("--policy", "raw", default=None, help=POLICY_HELP)
@with_rule_options
def orgs_create(
    org: str,
    name: str,
    parent: str | None,
    ceiling: str,
    raw: str | None,
    permit: str | None,
    deny: str | None,
    stores: tuple[str, ...],
    persons: tuple[str, ...],
) -> None:
    """Create organisation ORG."""
    from memory_pipelines.api.organisations import create_organisation

    row = create_organisation(
        _db(),
        org,
        name=name,
        parent=parent,
        ceiling=_caps(ceiling),
        policy=_policy(raw, permit, deny, stores, persons),
    )
    above = f" under {row['parent_id']!r}" if row["parent_id"] else ""
    click.echo(
        f"organisation {org!r}{above}: ceiling {_show(row['ceiling'])}, "
        f"{len(row['policy'])} policy rules"
    )


@orgs_group.command("ceiling")
@click.argument("org")
@click.argument("capabilities", nargs=-1)
def orgs_ceiling(org: str, capabilities: tuple[str, ...]) -> None:
    """Set ORG's ceiling to CAPABILITIES (none given: nothing is permitted)."""
    from memory_pipelines.api.organisations import set_ceiling

    caps = set_ceiling(_db(), org, [c for arg in capabilities for c in _caps(arg)])
    click.echo(f"organisation {org!r}: ceiling {_show(caps)}")


@orgs_group.command("policy")
@click.argument("org")
@click.argument("raw", metavar="[POLICY]", required=False)
@with_rule_options
def orgs_policy(
    org: str,
    raw: str | None,
    permit: str | None,
    deny: str | None,
    stores: tuple[str, ...],
    persons: tuple[str, ...],
) -> None:
    """Replace ORG's policy with POLICY (JSON rules) or the rules of --permit/--deny."""
    from memory_pipelines.api.organisations import set_policy

    rules = set_policy(_db(), org, _policy(raw, permit, deny, stores, persons))
    click.echo(json.dumps(rules, indent=2))


@orgs_group.command("assign")
@click.argument("org")
@click.argument("stores", nargs=-1, required=True)
def orgs_assign(org: str, stores: tuple[str, ...]) -> None:
    """Make ORG the owner of STORES (a store belongs to one organisation)."""
    from memory_pipelines.api.organisations import assign_store

    for store in stores:
        assign_store(_db(), store, org)
    one = len(stores) == 1
    click.echo(f"{len(stores)} store{'' if one else 's'} now belong{'s' if one else ''} to {org!r}")


@orgs_group.command("list")
def orgs_list() -> None:
    """Every organisation: parent, ceiling, stores, keys and policy."""
    from memory_pipelines.api.organisations import list_organisations

    for r in list_organisations(_db()):
        click.echo(
            f"{r['org_id']:20} parent {r['parent_id'] or '-':12} ceiling {_show(r['ceiling']):18}"
            f" {r['stores']} stores, {r['keys']} keys, policy {json.dumps(r['policy'])}"
        )


@click.group("keys")
def keys_group() -> None:
    """API keys: shown once at creation, stored only as a hash."""


@keys_group.command("create")
@click.option("--org", required=True, help="The organisation the key belongs to.")
@click.option("--name", default="", help="What the key is for.")
@click.option("--policy", "raw", default=None, help=POLICY_HELP)
@with_rule_options
@click.option("--expires", default=None, help="Expiry, ISO date or datetime (default: never).")
@click.option("--decay", multiple=True, help="TYPE=DAYS: this key's half-life for a type (repeat).")
@click.option(
    "--trust-envelope/--no-trust-envelope",
    default=None,
    help='Wrap auto-recall in <untrusted source="memory"> (default: the store\'s setting).',
)
@click.option("--rate", "rate_per_minute", default=600, show_default=True, help="Requests/minute.")
@click.option("--burst", default=60, show_default=True, help="Requests allowed at once.")
@click.option("--by", "created_by", required=True, help="Who creates it (recorded).")
def keys_create(
    org: str,
    name: str,
    raw: str | None,
    permit: str | None,
    deny: str | None,
    stores: tuple[str, ...],
    persons: tuple[str, ...],
    expires: str | None,
    decay: tuple[str, ...],
    trust_envelope: bool | None,
    rate_per_minute: int,
    burst: int,
    created_by: str,
) -> None:
    """Create a key; its text is printed once and never again."""
    from memory_pipelines.api.keys import create_key

    row, text = create_key(
        _db(),
        org,
        name=name,
        policy=_policy(raw, permit, deny, stores, persons),
        expires_at=expires,
        decay_per_type=_decay(decay),
        trust_envelope=trust_envelope,
        rate_per_minute=rate_per_minute,
        rate_burst=burst,
        created_by=created_by,
    )
    click.echo(f"key {row['key_id']} of {org!r} created; copy it now, it is not shown again:")
    click.echo(text)


@keys_group.command("list")
@click.option("--org", default=None, help="Only this organisation's keys.")
def keys_list(org: str | None) -> None:
    """Keys with their state and last use (never their secret)."""
    from memory_pipelines.api.keys import list_keys

    rows = list_keys(_db(), org)
    for r in rows:
        state = "revoked" if r["revoked_at"] else "active"
        if r["expires_at"] and not r["revoked_at"]:
            state += f" until {r['expires_at']:%Y-%m-%d %H:%M}"
        used = f"{r['last_used_at']:%Y-%m-%d %H:%M}" if r["last_used_at"] else "never"
        click.echo(
            f"{r['key_id']} {r['org_id']:16} {state:28} last used {used:16} {r['name']!r}"
            f" policy {json.dumps(r['policy'])}"
        )
    click.echo(f"{len(rows)} keys")


@keys_group.command("revoke")
@click.argument("key_id")
@click.option("--by", "actor", required=True, help="Who revokes it (recorded).")
def keys_revoke(key_id: str, actor: str) -> None:
    """Revoke KEY_ID at once (its next request is a 401)."""
    from memory_pipelines.api.keys import revoke_key

    row = revoke_key(_db(), key_id, actor=actor)
    click.echo(
        f"key {key_id} revoked at {row['revoked_at']:%Y-%m-%d %H:%M:%S} by {row['revoked_by']}"
    )


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option(
    "--port", default=8080, show_default=True, type=click.IntRange(1, 65535), help="TCP port."
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on the port (one per core serves the most).",
)
def serve(host: str, port: int, workers: int) -> None:
    """Serve the HTTP API (/v1/..., OpenAPI at /openapi.json) on the store (embedded by
    default, MEMORY_PG_DSN otherwise). Plain HTTP: put TLS in front (README)."""
    from memory_pipelines.service.serve import serve as run

    run(host, port, workers)


def _caps(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def _show(caps: list[str]) -> str:
    return ",".join(caps) or "(none)"


def _decay(pairs: tuple[str, ...]) -> dict[str, float]:
    out = {}
    for pair in pairs:
        kind, sep, days = pair.partition("=")
        try:
            out[kind.strip()] = float(days)
        except ValueError:
            sep = ""
        if not sep:
            raise click.BadParameter(f"{pair!r}: expected TYPE=DAYS", param_hint="--decay")
    return out
