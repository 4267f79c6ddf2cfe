"""In a chat between people extraction writes the speaker's name into every item, and two
unrelated facts of one person are near for the name alone: "Friendship means a lot to Tobias"
merged into "Their love gives Tobias strength", and a merge keeps the stored words, so the new
fact was lost (a third of the merges of the LoCoMo extraction pass were such). A merge must
hold with the speaker's name put aside; restatements still merge."""

from __future__ import annotations

import numpy as np
import pytest

from memory_pipelines.core.judge import decide
from memory_pipelines.core.judge_names import _masked, cos_without
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.evals.judge import run_case
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.factory import make_backend
from memory_pipelines.store.db import Database

STORED = ["Their love gives Tobias strength.", "Tobias works night shifts at the bakery."]


def _decide(embedder: Embedder, candidate: str, stored: list[str], said_by: str | None):
    vecs = embedder.embed([candidate, *stored])
    return decide(
        JudgeItem(candidate, "fact", said_by=said_by),
        [JudgeItem(t, "fact", valid_from="2023-05-01") for t in stored],
        vecs[0],
        vecs[1:],
        embed=embedder.embed,
    )


def test_facts_near_for_the_speakers_name_alone_stay_apart(embedder: Embedder) -> None:
    d = _decide(embedder, "Friendship means a lot to Tobias.", STORED, "Tobias")
    assert d.action == "create", d.reason
    assert d.reason.startswith("near for the name alone"), d.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        (
            "Pottery brings Tobias joy and he is passionate about it.",
            "Tobias is passionate about pottery and it brings him so much joy.",
        ),
        (
            "Tobias still volunteers at the food bank.",
            "Tobias has been volunteering at the food bank.",
        ),
    ],
)
def test_a_restatement_naming_the_speaker_still_merges(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    d = _decide(embedder, candidate, [stored, STORED[1]], "Tobias")
    assert (d.action, d.target) == ("merge", 0), d.reason


def test_the_cosine_without_the_name_is_lower(embedder: Embedder) -> None:
    a, b = "Friendship means a lot to Tobias.", "Their love gives Tobias strength."
    plain = embedder.embed([a, b])
    without = cos_without(a, b, frozenset({"tobias"}), embedder.embed)
    assert without is not None and without < float(plain[0] @ plain[1]) - 0.1
    # nothing of the name in the texts: nothing to mask
    assert cos_without("Likes tea.", "Drinks tea.", frozenset({"tobias"}), embedder.embed) is None
    # a possessive is the name too, and a name inside another word is not
    assert (
        _masked("Tobias's dog likes Tobiasz.", frozenset({"tobias"})) == "their dog likes Tobiasz."
    )


def test_the_masked_vectors_kept_are_the_texts_own_under_many_savers(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dedup may run in several threads of a server at once, and the kept vectors are evicted
    as new ones come: each caller still gets each text's own vector."""
    from concurrent.futures import ThreadPoolExecutor

    from memory_pipelines.core import judge_names

    monkeypatch.setattr(judge_names, "_SEEN_MAX", 3)
    texts = [f"Someone keeps {n} hens at the allotment." for n in range(6)]
    own = dict(zip(texts, embedder.embed(texts), strict=True))

    def ask(k: int) -> bool:
        pair = [texts[k % 6], texts[(k * 5 + 1) % 6]]
        got = judge_names._vectors(embedder.embed, pair)
        return all(np.allclose(g, own[t], atol=1e-5) for g, t in zip(got, pair, strict=True))

    with ThreadPoolExecutor(6) as pool:
        assert all(pool.map(ask, range(60)))
    assert len(judge_names._SEEN) <= 3


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        # the new value is worded unlike the old: without the name the two are far apart
        ("Tobias moved to Leeds last month.", "Tobias lives in York."),
        ("Tobias no longer plays five-a-side; his knee gave out.", "Tobias plays five-a-side."),
    ],
)
def test_a_change_naming_the_speaker_still_replaces(
    embedder: Embedder, candidate: str, stored: str
) -> None:
    """A change is tied to what it replaces by its cue and slot, not by nearness: the name
    put aside for a merge is not put aside here ("Tobias moved to Leeds" / "Tobias lives in
    York" is 0.38 with the name masked)."""
    d = _decide(embedder, candidate, [stored, STORED[1]], "Tobias")
    assert (d.action, d.target) == ("supersede", 0), d.reason


def test_a_case_that_names_its_speaker_is_judged_as_dedup_judges_it(
    db: Database, embedder: Embedder
) -> None:
    """A judge case may say who spoke the candidate's turn (`speaker`, as dedup passes it
    from a chat between people): `eval judge` then puts the name aside as dedup does."""
    case = {
        "id": "s1",
        "candidate": {"category": "fact", "context": "Friendship means a lot to Tobias."},
        "existing": [
            {"id": "m1", "category": "fact", "context": STORED[0], "valid_from": "2023-05-01"},
            {"id": "m2", "category": "fact", "context": STORED[1], "valid_from": "2023-05-01"},
        ],
        "label": "create",
        "target": None,
    }
    models = Models(make_backend("local", embedder))
    anonymous = {k: v for k, v in case.items() if k != "speaker"}
    assert run_case(db, models, embedder, {**anonymous, "speaker": None}) == ("merge", "m1")
    assert run_case(db, models, embedder, {**case, "speaker": "Tobias"}) == ("create", None)
