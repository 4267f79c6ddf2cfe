"""Run metadata per store. Dagster plots every numeric metadata key of an asset over time, one
line per key across all partitions: plain keys would draw every store on one line. So each
numeric figure is keyed under its store ("<store>/windows_new"): a store's series is its own,
and the partition view still lists each store's figures. Text, markdown, JSON and Dagster's
standard keys (dagster/row_count, dagster/table_name) keep their names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dagster as dg

_NUMERIC = (dg.IntMetadataValue, dg.FloatMetadataValue)


def _plotted(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, float, *_NUMERIC))


def per_store(store_id: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata with each plotted (numeric) figure keyed under the store."""
    return {
        (f"{store_id}/{k}" if _plotted(v) and not k.startswith("dagster/") else k): v
        for k, v in metadata.items()
    }


def unscoped(store_id: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """A materialisation's metadata read back by plain names, values unwrapped."""
    prefix = f"{store_id}/"
    return {k.removeprefix(prefix): getattr(v, "value", v) for k, v in metadata.items()}
