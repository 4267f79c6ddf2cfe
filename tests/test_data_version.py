"""An embedded data folder made by another major version of Postgres gets a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_pipelines.errors import StoreError
from memory_pipelines.store.server import embedded_dsn


def test_a_data_folder_of_another_postgres_version_is_refused_clearly(tmp_path: Path) -> None:
    (tmp_path / "pg").mkdir()
    (tmp_path / "pg" / "PG_VERSION").write_text("11\n")  # no install of this project made it
    with pytest.raises(StoreError, match=r"made by PostgreSQL 11.*cannot open it"):
        embedded_dsn(tmp_path)
