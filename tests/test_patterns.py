"""core/patterns.rx shares the word boundary of top-level alternatives: the split it relies on,
and, for every pattern the sentence readers compile, the same matches as the pattern compiled
as written, on LoCoMo's turns and the policy's development turns."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memory_pipelines.core.patterns import rx, shared_boundary, top_level_alternatives
from memory_pipelines.core.sentence_kinds import sentences

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"


@pytest.mark.parametrize(
    ("pattern", "parts"),
    [
        ("a|b", ["a", "b"]),
        ("(a|b)|c", ["(a|b)", "c"]),
        ("(?:x(?!y|z))|w", ["(?:x(?!y|z))", "w"]),
        (r"[|]x|y", ["[|]x", "y"]),
        (r"[]|]|z", ["[]|]", "z"]),
        (r"[^]|(]|q", ["[^]|(]", "q"]),
        (r"[\]|]|r", [r"[\]|]", "r"]),
        (r"\|a|b", [r"\|a", "b"]),
        (r"\(|\)", [r"\(", r"\)"]),
        ("single", ["single"]),
        ("a||b", ["a", "", "b"]),
    ],
)
def test_top_level_alternatives(pattern: str, parts: list[str]) -> None:
    assert top_level_alternatives(pattern) == parts


@pytest.mark.parametrize(
    ("pattern", "shared"),
    [
        (r"\bmaybe\b|\bmight\b|^if", r"\b(?:maybe\b|might\b)|^if"),
        (r"^so|\ba|\bb|x|\bc", r"^so|\b(?:a|b)|x|\bc"),  # order kept: runs are not merged
        (r"\bone", r"\bone"),
        (r"(\ba|\bb)", r"(\ba|\bb)"),  # inside a group: left alone
        (r"\\ba|\\bb", r"\\ba|\\bb"),  # an escaped backslash then "b" is no boundary
        (r"(?x)\ba | \bb", r"(?x)\ba | \bb"),  # global flags: left as written
    ],
)
def test_shared_boundary(pattern: str, shared: str) -> None:
    assert shared_boundary(pattern) == shared
    assert re.compile(shared)  # still a pattern


def test_alternative_order_decides_the_same_match() -> None:
    # Both alternatives match at 0: the first written wins, before and after.
    assert rx(r"\bno|\bnot really").match("not really").group() == "no"
    assert rx(r"x|\bab|\ba").search("zab ab").span() == (4, 6)


def _every_rx_pattern() -> list[str]:
    """The patterns every core module hands to rx, as written (a new interpreter records them
    while importing the modules)."""
    code = """
import importlib, json, pkgutil
import memory_pipelines.core.patterns as p
seen, compile_ = [], p.rx
def record(pattern):
    seen.append(pattern)
    return compile_(pattern)
p.rx = record
import memory_pipelines.core as core
for m in pkgutil.iter_modules(core.__path__):
    importlib.import_module("memory_pipelines.core." + m.name)
print(json.dumps(seen))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _texts() -> list[str]:
    locomo = json.loads((DATA / "locomo" / "locomo_dev.json").read_text())
    turns = [
        t["text"]
        for sample in locomo[:2]
        for key, value in sample["conversation"].items()
        if key.startswith("session_") and isinstance(value, list)
        for t in value
    ]
    for line in (DATA / "policy" / "policy_dev.jsonl").read_text().splitlines():
        turns.append(json.loads(line)["turn"]["text"])
    said = [s for t in turns for s in sentences(t)]
    return said + [" ".join(s.lower().replace("\u2019", "'").split()) for s in said]


def test_shared_boundary_matches_as_written() -> None:
    patterns = _every_rx_pattern()
    changed = [p for p in patterns if shared_boundary(p) != p]
    assert len(changed) >= 30  # the hedge, kind and speech-act patterns among them
    texts = _texts()
    assert len(texts) > 3000
    for pattern in changed:
        written, shared = re.compile(pattern, re.IGNORECASE), rx(pattern)
        for text in texts:
            a, b = written.search(text), shared.search(text)
            assert (a and a.span()) == (b and b.span()), (pattern[:80], text)
            a, b = written.match(text), shared.match(text)
            assert (a and a.span()) == (b and b.span()), (pattern[:80], text)
