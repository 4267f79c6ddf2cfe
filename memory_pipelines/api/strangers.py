"""Who of another organisation a store's records name. A store assigned from one organisation
to another keeps its records, their versions, their events and their read audit; who wrote,
changed or read them there (their keys, accounts and administrators' names) is the former
owner's to know. Each reader is shown them as "another organisation" (a console audit)."""

from __future__ import annotations

from memory_pipelines.core.access import Principal
from memory_pipelines.core.listing import FOREIGN_WRITER
from memory_pipelines.core.types import ItemVersion
from memory_pipelines.store import keys as keys_db
from memory_pipelines.store import organisations as orgs_db
from memory_pipelines.store.db import Database

ANOTHER = "another organisation"


class Strangers:
    """The keys and administrators of neither the reader's organisation nor the store's owner."""

    def __init__(self, db: Database, principal: Principal, store: str) -> None:
        self.db = db
        with db.connection() as conn:
            owner = orgs_db.store_owner(conn, store)
        self.ours = {principal.org_id, owner or principal.org_id}
        self._orgs: dict[str, str | None] = {}

    def key(self, key_id: str | None) -> bool:
        """Whether a key is another organisation's (a key no longer known counts as one)."""
        if not key_id:
            return False
        if key_id not in self._orgs:
            with self.db.connection() as conn:
                self._orgs[key_id] = keys_db.orgs_of(conn, {key_id}).get(key_id)
        return self._orgs[key_id] not in self.ours

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
