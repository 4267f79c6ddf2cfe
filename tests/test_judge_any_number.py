"""The judge reads any number-like text without failing: a firmware version ("4.2.1") in a
support chat raised ValueError in the value reader, and since dedup runs in every extraction
run, the store's memory_items step failed on it every run (a new user's probe: the store kept
no record at all). Versions, addresses and codes are read as written."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.core.judge_values import typed_values

WORDS = st.sampled_from(
    [
        "the",
        "budget",
        "is",
        "now",
        "guests",
        "at",
        "by",
        "on",
        "March",
        "every",
        "week",
        "Tom",
        "moved",
        "to",
        "costs",
        "room",
        "floor",
        "order",
        "was",
        "not",
        "instead",
        "of",
        "and",
        "or",
        "between",
        "version",
        "firmware",
        "from",
        "until",
        "per",
        "a",
        "month",
        "hours",
        "Monday",
        "IP",
        "ticket",
        "twice",
        "half",
    ]  # fmt: skip
)
PART = st.sampled_from(
    ["0", "1", "2", "3", "7", "10", "12", "24", "31", "59", "100", "2024", "9" * 400]
)
NUMBER = st.builds(
    lambda pre, parts, seps, suf: (
        pre + parts[0] + "".join(s + p for s, p in zip(seps, parts[1:], strict=False)) + suf
    ),
    st.sampled_from(["", "£", "$", "€", "USD ", "#", "v", "~", "+", "-"]),
    st.lists(PART, min_size=1, max_size=4),
    st.lists(st.sampled_from([".", ",", ":", "/", "-", "", " "]), min_size=3, max_size=3),
    st.sampled_from(["", "k", "m", "bn", "%", "am", "pm", "st", "th", "°C", "x", "mg", "km"]),
)
SENTENCE = st.lists(st.one_of(WORDS, NUMBER), min_size=2, max_size=12).map(" ".join)


def test_versions_and_addresses_are_values_as_written() -> None:
    assert typed_values("Firmware 4.2.1 fixes it") == {"n:fix": frozenset({"4.2.1"})}
    assert typed_values("Firmware 4.2.0 fixes it") != typed_values("Firmware 4.2.1 fixes it")
    assert typed_values("IP 10.0.0.1")  # read, not raised


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3))
def test_the_judge_decides_on_any_number_like_text(candidate: str, stored: list[str]) -> None:
    rng = np.random.default_rng(len(candidate) + len(stored))
    vecs = rng.normal(size=(len(stored) + 1, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    existing = [JudgeItem(s, "fact", 7, "user", "2024-01-01") for s in stored]
    decision = decide(JudgeItem(candidate, "fact", 6, "machine"), existing, vecs[0], vecs[1:])
    assert decision.action in ("create", "merge", "supersede")
