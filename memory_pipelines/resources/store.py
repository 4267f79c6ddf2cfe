"""The memory store as a Dagster resource."""

from __future__ import annotations

import dagster as dg

from memory_pipelines.api.memory import Memory
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store.db import Database, get_database


class StoreResource(dg.ConfigurableResource):
    """Postgres holding the memory tables. Empty `dsn`: MEMORY_PG_DSN at run time, else the
    embedded server under MEMORY_HOME."""

    dsn: str = ""

    def database(self) -> Database:
        return get_database(self.dsn or None)

    def memory(self, store_id: str, embedder: Embedder | None = None) -> Memory:
        return Memory(store_id, db=self.database(), embedder=embedder)
