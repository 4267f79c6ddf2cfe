"""The dedup judge on labelled cases, through the same code path as save_with_dedup."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from memory_pipelines.api.dedup import save_deduplicated
from memory_pipelines.api.dedup_near import Provenance
from memory_pipelines.core.judge_eval import case_item
from memory_pipelines.core.judge_types import JudgeItem
from memory_pipelines.core.records import ItemInput, validate_item
from memory_pipelines.evals.scoring import classification_report
from memory_pipelines.models.base import Models
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import items as items_db
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database


class _Rollback(Exception):
    pass


def run_case(
    db: Database, models: Models, embedder: Embedder, case: dict[str, Any]
) -> tuple[str, str | None]:
    """(label, target case id) decided for one case, in a scratch store rolled back after."""
    store_id = f"eval-judge-{uuid.uuid4().hex[:10]}"
    existing = case["existing"]
    cand = case["candidate"]
    vecs = embedder.embed([e["context"] for e in existing] + [cand["context"]])
    decided: tuple[str, str | None] = ("create", None)
    try:
        with db.transaction() as conn:
            stores_db.ensure_store(conn, store_id)
            ids: dict[int, str] = {}
            for e, vec in zip(existing, vecs, strict=False):
                item = _validated(case_item(e), e.get("valid_from"))
                new = items_db.insert_item(
                    conn, store_id, item, vec, origin="explicit", trusted=True
                )
                ids[new.item_id] = e["id"]
            item = _validated(case_item(cand), datetime.now(UTC))
            res = save_deduplicated(
                conn,
                store_id,
                item,
                vecs[-1],
                models,
                # who said the candidate's turn, when the case names a speaker
                Provenance(origin="explicit", trusted=True, speaker=case.get("speaker")),
            )
            if res.deduplicated and res.merged_into is not None:
                decided = ("merge", ids.get(res.merged_into))
            elif res.superseded is not None:
                decided = ("supersede", ids.get(res.superseded))
            raise _Rollback
    except _Rollback:
        pass
    return decided


def _validated(item: JudgeItem, valid_from: Any) -> ItemInput:
    return validate_item(
        {
            "category": item.category,
            "context": item.context,
            "confidence": item.confidence,
            "source": "user" if item.origin == "user" else "machine",
            "valid_from": valid_from,
        }
    )


def evaluate(
    db: Database, models: Models, embedder: Embedder, cases: Iterable[dict[str, Any]]
) -> dict[str, Any]:
    gold, pred, correct, misses = [], [], [], []
    for case in cases:
        label, target = run_case(db, models, embedder, case)
        models.drain()  # a scratch evaluation: its calls are not metered store work
        ok = label == case["label"] and (label == "create" or target == case["target"])
        gold.append(case["label"])
        pred.append(label)
        correct.append(ok)
        if not ok:
            misses.append(
                {
                    "id": case["id"],
                    "expected": [case["label"], case["target"]],
                    "got": [label, target],
                }
            )
    report = classification_report(gold, pred, correct)
    report["backend"] = models.backend.name
    report["misses"] = misses
    return report
