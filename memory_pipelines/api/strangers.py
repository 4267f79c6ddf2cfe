"""Who of another organisation a store's records name. A store assigned from one organisation
to another keeps its records, their versions, their events and their read audit; who wrote,
changed or read them there (their keys, accounts and administrators' names) is the former
owner's to know. Each reader is shown them as "another organisation" (a console audit)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext

from memory_pipelines.core.access import Principal
from memory_pipelines.core.listing import FOREIGN_WRITER
from memory_pipelines.core.types import ItemVersion
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store.db import Conn, Database

ANOTHER = "another organisation"


class Strangers:
    """The keys and administrators of neither the reader's organisation nor the store's owner
    (`ours`). Built on a Database (a connection taken per lookup: the event feed holds none)
    or on an open connection."""

    def __init__(self, db: Database | Conn, principal: Principal, store: str) -> None:
        self._connect: Callable[[], AbstractContextManager[Conn]] = (
            db.connection if isinstance(db, Database) else lambda: nullcontext(db)
        )
        with self._connect() as conn:
            owner = orgs_db.store_owner(conn, store)
        self.ours = [principal.org_id, owner or principal.org_id]
        self._orgs: dict[str, str | None] = {}

    def keys(self, key_ids: Iterable[str | None]) -> set[str]:
        """Those of the keys that are another organisation's (a key no longer known counts as
        one), read in one statement for those not asked before."""
        wanted = {k for k in key_ids if k}
        new = wanted - self._orgs.keys()
        if new:
            with self._connect() as conn:
                found = keys_db.orgs_of(conn, new)
            self._orgs.update({k: found.get(k) for k in new})
        return {k for k in wanted if self._orgs[k] not in self.ours}

    def key(self, key_id: str | None) -> bool:
        """Whether a key is another organisation's."""
        return bool(self.keys([key_id]))

    def actor(self, actor: str) -> str:
        """An actor as this reader is shown it: "key <id>" and "console:<org>/<name>" of
        another organisation are "another organisation"; anything else (a job, the command
        line) as it is."""
        if actor.startswith("key ") and self.key(actor[4:].strip()):
            return ANOTHER
        if actor.startswith("console:") and actor[8:].split("/", 1)[0] not in self.ours:
            return ANOTHER
        return actor

    def version(self, v: ItemVersion) -> ItemVersion:
        """A version with its actor and its snapshot's key shown to this reader."""
        snap = v.snapshot
        if self.key(snap.key_id) or self.actor(snap.written_by) == ANOTHER:
            snap = snap.model_copy(update={"key_id": None, "written_by": FOREIGN_WRITER})
        return v.model_copy(update={"actor": self.actor(v.actor), "snapshot": snap})
