"""The policy intersection: key ∩ organisation ∩ every ceiling above; Deny beats Permit; no
rule, no right; the refusing level named. Pure, no database."""

from __future__ import annotations

import pytest

from memory_pipelines.core import keys
from memory_pipelines.core.access import (
    ACTIONS,
    Organisation,
    Request,
    Rule,
    check_within,
    decide,
    parse_ceiling,
    parse_policy,
    policy_to_json,
    reachable,
)
from memory_pipelines.errors import ValidationError

FULL = frozenset({"knowledge", "memory"})
KNOWLEDGE = frozenset({"knowledge"})


def permit(
    *actions: str, stores: list[str] | None = None, persons: list[str] | None = None
) -> Rule:
    return Rule(
        "permit",
        frozenset(actions),
        frozenset(stores) if stores else None,
        frozenset(persons) if persons else None,
    )


def deny(*actions: str, stores: list[str] | None = None, persons: list[str] | None = None) -> Rule:
    return Rule(
        "deny",
        frozenset(actions),
        frozenset(stores) if stores else None,
        frozenset(persons) if persons else None,
    )


READ = permit("read_memory")
ALL = permit(*ACTIONS)

# (case, key rules, org rules, ceilings from the key's org upward, request, refusing levels)
CASES = [
    ("both permit, ceiling open", [READ], [READ], [FULL], Request("read_memory", "s"), []),
    ("no rule anywhere", [], [], [FULL], Request("read_memory", "s"), ["key", "organisation"]),
    ("key has no rule", [], [READ], [FULL], Request("read_memory", "s"), ["key"]),
    ("organisation has no rule", [READ], [], [FULL], Request("read_memory", "s"), ["organisation"]),
    ("other action permitted", [READ], [ALL], [FULL], Request("write_memory", "s"), ["key"]),
    (
        "deny beats permit at key",
        [ALL, deny("read_memory")],
        [ALL],
        [FULL],
        Request("read_memory", "s"),
        ["key"],
    ),
    (
        "deny beats permit at org",
        [ALL],
        [deny("read_memory"), ALL],
        [FULL],
        Request("read_memory", "s"),
        ["organisation"],
    ),
    (
        "own ceiling lacks memory",
        [ALL],
        [ALL],
        [KNOWLEDGE],
        Request("read_memory", "s"),
        ["ceiling"],
    ),
    (
        "parent ceiling lacks memory",
        [ALL],
        [ALL],
        [FULL, KNOWLEDGE],
        Request("search_memory", "s"),
        ["ceiling"],
    ),
    (
        "grandparent ceiling empty",
        [ALL],
        [ALL],
        [FULL, FULL, frozenset()],
        Request("read_feed", "s"),
        ["ceiling"],
    ),
    (
        "every level refuses",
        [],
        [],
        [KNOWLEDGE, frozenset()],
        Request("read_memory", "s"),
        ["key", "organisation", "ceiling", "ceiling"],
    ),
    # store limits
    (
        "permit for this store",
        [permit("read_memory", stores=["s"])],
        [ALL],
        [FULL],
        Request("read_memory", "s"),
        [],
    ),
    (
        "permit for another store",
        [permit("read_memory", stores=["t"])],
        [ALL],
        [FULL],
        Request("read_memory", "s"),
        ["key"],
    ),
    (
        "store permit does not cover every store",
        [permit("read_memory", stores=["s"])],
        [ALL],
        [FULL],
        Request("read_memory", None),
        ["key"],
    ),
    (
        "deny of one store covers every store",
        [ALL],
        [ALL, deny("read_memory", stores=["t"])],
        [FULL],
        Request("read_memory", None),
        ["organisation"],
    ),
    (
        "deny of another store",
        [ALL],
        [ALL, deny("read_memory", stores=["t"])],
        [FULL],
        Request("read_memory", "s"),
        [],
    ),
    # person limits
    (
        "permit for this person",
        [permit("read_memory", persons=["alice"])],
        [ALL],
        [FULL],
        Request("read_memory", "s", "alice"),
        [],
    ),
    (
        "permit for another person",
        [permit("read_memory", persons=["alice"])],
        [ALL],
        [FULL],
        Request("read_memory", "s", "bob"),
        ["key"],
    ),
    (
        "person permit does not cover everyone",
        [permit("read_memory", persons=["alice"])],
        [ALL],
        [FULL],
        Request("read_memory", "s", None),
        ["key"],
    ),
    (
        "deny of a person covers everyone",
        [ALL, deny("read_memory", persons=["bob"])],
        [ALL],
        [FULL],
        Request("read_memory", "s", None),
        ["key"],
    ),
    (
        "deny of another person",
        [ALL, deny("read_memory", persons=["bob"])],
        [ALL],
        [FULL],
        Request("read_memory", "s", "alice"),
        [],
    ),
    (
        "store and person both must match",
        [permit("read_memory", stores=["s"], persons=["alice"])],
        [ALL],
        [FULL],
        Request("read_memory", "t", "alice"),
        ["key"],
    ),
    (
        "org limits to a store the key does not",
        [ALL],
        [permit(*ACTIONS, stores=["t"])],
        [FULL],
        Request("write_memory", "s"),
        ["organisation"],
    ),
]


@pytest.mark.parametrize(
    ("key_rules", "org_rules", "ceilings", "req", "levels"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_intersection(
    key_rules: list[Rule],
    org_rules: list[Rule],
    ceilings: list[frozenset[str]],
    req: Request,
    levels: list[str],
) -> None:
    chain = [Organisation(f"org{i}", c, ()) for i, c in enumerate(ceilings)]
    chain[0] = Organisation("org0", ceilings[0], tuple(org_rules))
    d = decide(req, "k1", tuple(key_rules), chain)
    assert [r.level for r in d.refusals] == levels
    assert d.allowed is (not levels)
    assert d.level == (levels[0] if levels else None)
    if levels:
        assert d.missing.startswith(req.action)


def test_refusals_name_who_and_why() -> None:
    chain = [
        Organisation("child", FULL, (ALL,)),
        Organisation("parent", KNOWLEDGE, ()),
    ]
    d = decide(Request("read_memory", "s"), "k1", (deny("read_memory"),), chain)
    assert [(r.level, r.who) for r in d.refusals] == [("key", "k1"), ("ceiling", "parent")]
    assert d.refusals[0].reason == "denied by rule 0"
    assert "memory" in d.refusals[1].reason
    assert d.missing == "read_memory on store 's'"


def test_an_organisation_policy_above_does_not_grant() -> None:
    # Only the key's own organisation's policy counts; a parent's Permit grants nothing.
    chain = [Organisation("child", FULL, ()), Organisation("parent", FULL, (ALL,))]
    d = decide(Request("read_memory", "s"), "k1", (ALL,), chain)
    assert d.level == "organisation" and d.refusals[0].who == "child"


def test_reachable_store_for_a_person_limited_key() -> None:
    chain = [Organisation("o", FULL, (ALL,))]
    key = (permit("read_memory", stores=["s"], persons=["alice"]),)
    assert reachable("s", "k", key, chain)
    assert not reachable("t", "k", key, chain)
    assert not reachable("s", "k", (), chain)


def test_policy_round_trip_and_errors() -> None:
    raw = [
        {"effect": "deny", "actions": ["delete_memory"]},
        {
            "effect": "permit",
            "actions": ["read_memory", "search_memory"],
            "stores": ["a"],
            "persons": ["p"],
        },
    ]
    assert policy_to_json(parse_policy(raw)) == [
        {"effect": "deny", "actions": ["delete_memory"]},
        {
            "effect": "permit",
            "actions": ["read_memory", "search_memory"],
            "stores": ["a"],
            "persons": ["p"],
        },
    ]
    bad = [
        ({"effect": "allow", "actions": ["read_memory"]}, "policy[0].effect"),
        ({"effect": "permit", "actions": ["read"]}, "policy[0].actions"),
        ({"effect": "permit", "actions": []}, "policy[0].actions"),
        ({"effect": "permit", "actions": ["read_memory"], "stores": []}, "policy[0].stores"),
        ({"effect": "permit", "actions": ["read_memory"], "who": 1}, "policy[0].who"),
        ("permit all", "policy[0]"),
    ]
    for rule, field in bad:
        with pytest.raises(ValidationError) as exc:
            parse_policy([rule])
        assert exc.value.field == field
    with pytest.raises(ValidationError, match="list of rules"):
        parse_policy({"effect": "permit"})


def test_ceiling_rules() -> None:
    assert parse_ceiling(["memory", "knowledge"]) == FULL
    assert parse_ceiling([]) == frozenset()
    with pytest.raises(ValidationError, match="memory needs knowledge"):
        parse_ceiling(["memory"])
    with pytest.raises(ValidationError, match="unknown capability 'billing'"):
        parse_ceiling(["knowledge", "billing"])
    check_within(KNOWLEDGE, [Organisation("p", FULL, ())])
    with pytest.raises(ValidationError, match="not in the ceiling of organisation 'g'"):
        check_within(FULL, [Organisation("p", FULL, ()), Organisation("g", KNOWLEDGE, ())])


def test_key_text() -> None:
    key_id, text = keys.new_key()
    other_id, other = keys.new_key()
    assert key_id != other_id and text != other
    assert keys.key_id_of(text) == key_id
    stored = keys.digest(text)
    assert keys.matches(text, stored)
    assert not keys.matches(other, stored)
    assert not keys.matches(text, None)
    assert keys.key_id_of(text[:-1]) is None
    assert keys.key_id_of("Bearer " + text) is None
    assert text not in stored.hex()
