"""Who may do what: ceilings, policies and the access decision (pure).

A key's rights are the intersection of three levels: the key's own policy, its organisation's
policy, and the ceiling of its organisation and of every organisation above it. At a policy
level a matching Deny refuses, else a matching Permit allows, else nothing is allowed (no rule,
no right). A ceiling lists capabilities; every action needs some, and memory needs knowledge.

Scope of a request: `store` None means across every store, `person` None means not narrowed to
one person (every person's records). A Permit limited to stores or persons covers only requests
narrowed to one of them; a Deny limited to them also covers the unnarrowed request (it would
include what is denied). So a key limited to person alice must read *as* alice (her records and
the shared ones), never "everyone's".

(This is access control; core/policy.py is the unrelated save policy.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from memory_pipelines.core.records import clean_text
from memory_pipelines.errors import ValidationError

ACTIONS: tuple[str, ...] = (
    "read_memory",  # list and read records, their history and commitments
    "write_memory",  # write turns, save records
    "delete_memory",  # delete a record
    "search_memory",  # search, auto-recall, the boot window
    "read_feed",  # the event feed
    "administer_settings",  # read and change a store's settings cards
)
CAPABILITIES: tuple[str, ...] = ("knowledge", "memory")
# A capability that is only usable with others on (the console: "memory needs knowledge").
CAPABILITY_NEEDS: dict[str, frozenset[str]] = {"memory": frozenset({"knowledge"})}
# Every action of the memory API is memory; a knowledge-only action would name knowledge alone.
ACTION_NEEDS: dict[str, frozenset[str]] = {a: frozenset({"memory", "knowledge"}) for a in ACTIONS}

Effect = Literal["permit", "deny"]
Level = Literal["key", "organisation", "ceiling"]
EFFECTS: tuple[str, ...] = ("permit", "deny")


@dataclass(frozen=True)
class Rule:
    effect: Effect
    actions: frozenset[str]
    stores: frozenset[str] | None = None  # None: every store
    persons: frozenset[str] | None = None  # None: every person and the shared records

    def matches(self, req: Request) -> bool:
        if req.action not in self.actions:
            return False
        if self.effect == "permit":
            return _covers_permit(self.stores, req.store) and _covers_permit(
                self.persons, req.person
            )
        return _covers_deny(self.stores, req.store) and _covers_deny(self.persons, req.person)


def _covers_permit(limit: frozenset[str] | None, value: str | None) -> bool:
    return limit is None or (value is not None and value in limit)


def _covers_deny(limit: frozenset[str] | None, value: str | None) -> bool:
    return limit is None or value is None or value in limit


Policy = tuple[Rule, ...]


@dataclass(frozen=True)
class Request:
    action: str
    store: str | None = None
    person: str | None = None

    def describe(self) -> str:
        """The permit this request needs, in words: `read_memory on store 'a' for person 'b'`."""
        where = f" on store {self.store!r}" if self.store else " on every store"
        who = f" for person {self.person!r}" if self.person else ""
        return f"{self.action}{where}{who}"


@dataclass(frozen=True)
class Organisation:
    org_id: str
    ceiling: frozenset[str]
    policy: Policy
    parent: str | None = None


@dataclass(frozen=True)
class Refusal:
    level: Level
    who: str  # the key id (key level) or the organisation id (organisation, ceiling)
    reason: str


@dataclass(frozen=True)
class Decision:
    request: Request
    refusals: tuple[Refusal, ...] = ()

    @property
    def allowed(self) -> bool:
        return not self.refusals

    @property
    def level(self) -> Level | None:
        """The nearest level that refused (key, then organisation, then ceilings upward)."""
        return self.refusals[0].level if self.refusals else None

    @property
    def missing(self) -> str:
        """The permit that is missing, in words."""
        return self.request.describe()


def _policy_refusal(policy: Policy, req: Request) -> str | None:
    """Why this policy refuses the request, or None when it permits it. Deny beats Permit."""
    denied = [i for i, r in enumerate(policy) if r.effect == "deny" and r.matches(req)]
    if denied:
        return f"denied by rule {denied[0]}"
    if any(r.effect == "permit" and r.matches(req) for r in policy):
        return None
    return "no rule permits it"


def capabilities_needed(action: str) -> frozenset[str]:
    """The capabilities an action needs, with what they need in turn."""
    out = set(ACTION_NEEDS[action])
    for cap in list(out):
        out |= CAPABILITY_NEEDS.get(cap, frozenset())
    return frozenset(out)


def decide(
    req: Request, key_id: str, key_policy: Policy, chain: Sequence[Organisation]
) -> Decision:
    """Whether a key may make this request: key policy ∩ organisation policy ∩ every ceiling.

    `chain` is the key's organisation first, then its parent, up to the top. Every refusing
    level is returned, nearest first (key, organisation, then ceilings upward)."""
    if req.action not in ACTIONS:
        raise ValidationError("action", f"must be one of {', '.join(ACTIONS)}, got {req.action!r}")
    if not chain:
        raise ValueError("a key's organisation chain cannot be empty")
    refusals: list[Refusal] = []
    why = _policy_refusal(key_policy, req)
    if why:
        refusals.append(Refusal("key", key_id, why))
    why = _policy_refusal(chain[0].policy, req)
    if why:
        refusals.append(Refusal("organisation", chain[0].org_id, why))
    needed = capabilities_needed(req.action)
    for org in chain:
        off = sorted(needed - org.ceiling)
        if off:
            refusals.append(
                Refusal("ceiling", org.org_id, f"capability {', '.join(off)} is not permitted")
            )
    return Decision(req, tuple(refusals))


def decide_administrator(req: Request, chain: Sequence[Organisation]) -> Decision:
    """Whether an administrator account of the organisation (the console) may make this
    request: an administrator holds every right in its organisation, bounded by the ceilings
    of its organisation and every one above."""
    if req.action not in ACTIONS:
        raise ValidationError("action", f"must be one of {', '.join(ACTIONS)}, got {req.action!r}")
    needed = capabilities_needed(req.action)
    refusals = [
        Refusal("ceiling", org.org_id, f"capability {', '.join(off)} is not permitted")
        for org in chain
        if (off := sorted(needed - org.ceiling))
    ]
    return Decision(req, tuple(refusals))


def persons_permitted(policy: Policy, action: str) -> frozenset[str]:
    """The persons the policy's Permit rules for `action` are limited to: whom a key limited to
    persons may act as (each still to be decided)."""
    out: set[str] = set()
    for rule in policy:
        if rule.effect == "permit" and action in rule.actions and rule.persons:
            out |= rule.persons
    return frozenset(out)


def reachable(store: str, key_id: str, key_policy: Policy, chain: Sequence[Organisation]) -> bool:
    """Whether the key may do anything at all in a store (for whom it may act), so that a
    listing of stores shows it."""
    persons: set[str | None] = {None}
    for rule in key_policy:
        if rule.effect == "permit" and rule.persons:
            persons |= rule.persons
    return any(
        decide(Request(a, store, p), key_id, key_policy, chain).allowed
        for a in ACTIONS
        for p in persons
    )


# -- validation: policies and ceilings as JSON ---------------------------------------------


def parse_policy(raw: Any, field: str = "policy") -> Policy:
    """A policy from its JSON: a list of {effect, actions, stores?, persons?}."""
    if not isinstance(raw, list):
        raise ValidationError(field, f"must be a list of rules, got {type(raw).__name__}")
    return tuple(_parse_rule(r, f"{field}[{i}]") for i, r in enumerate(raw))


def _parse_rule(raw: Any, where: str) -> Rule:
    if not isinstance(raw, dict):
        raise ValidationError(where, "must be an object {effect, actions, stores?, persons?}")
    unknown = set(raw) - {"effect", "actions", "stores", "persons"}
    if unknown:
        raise ValidationError(
            f"{where}.{sorted(unknown)[0]}",
            "unknown field; allowed: effect, actions, stores, persons",
        )
    effect = raw.get("effect")
    if effect not in EFFECTS:
        raise ValidationError(f"{where}.effect", f"must be permit or deny, got {effect!r}")
    actions = _names(raw.get("actions"), f"{where}.actions", required=True) or frozenset()
    bad = sorted(actions - set(ACTIONS))
    if bad:
        raise ValidationError(
            f"{where}.actions", f"unknown action {bad[0]!r}; allowed: {', '.join(ACTIONS)}"
        )
    return Rule(
        effect=effect,
        actions=actions,
        stores=_names(raw.get("stores"), f"{where}.stores"),
        persons=_names(raw.get("persons"), f"{where}.persons"),
    )


def _names(raw: Any, where: str, *, required: bool = False) -> frozenset[str] | None:
    if raw is None and not required:
        return None
    if (
        not isinstance(raw, list)
        or not raw
        or not all(isinstance(v, str) and v.strip() and len(v) <= 200 for v in raw)
    ):
        what = "a non-empty list of names" + ("" if required else ", or absent for all")
        raise ValidationError(where, f"must be {what}, got {raw!r}")
    for i, v in enumerate(raw):
        clean_text(f"{where}[{i}]", v)
    return frozenset(raw)


def policy_to_json(policy: Policy) -> list[dict[str, Any]]:
    out = []
    for r in policy:
        rule: dict[str, Any] = {"effect": r.effect, "actions": sorted(r.actions)}
        if r.stores is not None:
            rule["stores"] = sorted(r.stores)
        if r.persons is not None:
            rule["persons"] = sorted(r.persons)
        out.append(rule)
    return out


def parse_ceiling(raw: Iterable[Any], field: str = "ceiling") -> frozenset[str]:
    """A ceiling from a list of capabilities; memory needs knowledge."""
    if isinstance(raw, str) or not all(isinstance(c, str) for c in raw):
        raise ValidationError(field, f"must be a list of capabilities, got {raw!r}")
    caps = frozenset(raw)
    bad = sorted(caps - set(CAPABILITIES))
    if bad:
        raise ValidationError(
            field, f"unknown capability {bad[0]!r}; allowed: {', '.join(CAPABILITIES)}"
        )
    for cap in sorted(caps):
        lacking = sorted(CAPABILITY_NEEDS.get(cap, frozenset()) - caps)
        if lacking:
            raise ValidationError(field, f"{cap} needs {', '.join(lacking)}: add it too")
    return caps


def check_within(ceiling: frozenset[str], ancestors: Sequence[Organisation]) -> None:
    """A child's ceiling may not permit what an organisation above it does not."""
    for org in ancestors:
        beyond = sorted(ceiling - org.ceiling)
        if beyond:
            allowed = ", ".join(sorted(org.ceiling)) or "nothing"
            raise ValidationError(
                "ceiling",
                f"{', '.join(beyond)} is not in the ceiling of organisation {org.org_id!r} "
                f"above it (it permits: {allowed})",
            )


@dataclass(frozen=True)
class Principal:
    """Who makes a request: a key of an organisation (key_id, bounded by its policy), or an
    administrator account of it (account_id: the console; bounded by the ceilings only)."""

    org_id: str
    policy: Policy
    chain: tuple[Organisation, ...]  # the organisation first, then each one above
    key_id: str | None = None
    account_id: int | None = None
    # The key's own read settings: its decay per type (type -> half-life days, before the
    # store's) and trust envelope (None: the store's). Administrators read as the store is.
    decay_per_type: tuple[tuple[str, float], ...] = ()
    trust_envelope: bool | None = None
    # Stores its organisation was read to own when this request was admitted (the store of
    # the request's path, read with the key): `authorize` does not read them again.
    owns: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return f"key {self.key_id}" if self.key_id else f"account {self.account_id}"

    @property
    def administrator(self) -> bool:
        return self.key_id is None and self.account_id is not None

    def decide(self, req: Request) -> Decision:
        if self.administrator:
            return decide_administrator(req, self.chain)
        return decide(req, self.key_id or "", self.policy, self.chain)

    def reaches(self, store: str) -> bool:
        if self.administrator:
            return any(self.decide(Request(a, store)).allowed for a in ACTIONS)
        return reachable(store, self.key_id or "", self.policy, self.chain)
