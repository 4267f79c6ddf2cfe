"""Asset checks judge one store: each is partitioned like its asset, so the UI keeps a verdict
per store (store A's failure stays visible however many stores pass after it), and a blocking
check that fails stops the steps after it in the same run, so bad rows of that store flow no
further. A check's description is what the catalog shows before it ever ran."""

import warnings
from collections.abc import Sequence
from typing import Any

import dagster as dg

from memory_pipelines.defs.partitions import stores_partitions

# Partitioned checks are a Dagster preview (1.13): the behaviour this project relies on (one
# evaluation per partition, filtered per partition in storage and the UI) is tested here.
warnings.filterwarnings(
    "ignore", message=".*partitions_def on an AssetCheckSpec.*", category=dg.PreviewWarning
)


def store_check(name: str, asset: str, description: str, *, blocking: bool) -> dg.AssetCheckSpec:
    """A check of `asset` per store partition; `blocking`: a failure stops what depends on it."""
    return dg.AssetCheckSpec(
        name,
        asset=asset,
        description=description,
        blocking=blocking,
        partitions_def=stores_partitions,
    )


SHOWN_IDS = 20  # a failed check names at most this many of the rows it found


def result(
    spec: dg.AssetCheckSpec,
    passed: bool,
    *,
    ids: Sequence[int] = (),
    next_step: str = "",
    **metadata: Any,
) -> dg.AssetCheckResult:
    """The check's verdict for the run's store. Passed, it carries the spec's description;
    failed, the first SHOWN_IDS ids of the rows at fault and what to do (`next_step`), in
    the description and the metadata."""
    if not passed:
        shown = ", ".join(str(i) for i in list(ids)[:SHOWN_IDS])
        more = f" (and {len(ids) - SHOWN_IDS} more)" if len(ids) > SHOWN_IDS else ""
        metadata = {**metadata, "ids": f"{shown}{more}", "next_step": next_step}
    return dg.AssetCheckResult(
        check_name=spec.name,
        passed=passed,
        metadata={k: v for k, v in metadata.items() if v != ""},
        description=spec.description if passed else next_step or spec.description,
        severity=dg.AssetCheckSeverity.ERROR,
    )
