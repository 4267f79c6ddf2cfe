"""The stored items a candidate is compared with on save: the nearest by vector among its
person's own (from a run's in-memory pool, or the table), less those taken from another sentence
of its own turn and those another person said. What api/dedup.py shows the judge.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from memory_pipelines.core.records import ItemInput
from memory_pipelines.core.sentence_people import names_person
from memory_pipelines.core.types import Item
from memory_pipelines.core.vector_pool import VectorPool
from memory_pipelines.store import events as events_db
from memory_pipelines.store import item_vectors
from memory_pipelines.store import items as items_db
from memory_pipelines.store.db import Conn
from memory_pipelines.store.speakers import Speakers, people_speaking

NEIGHBOURS = 6


@dataclass
class Provenance:
    origin: str
    trusted: bool
    written_by: str = ""
    key_id: str | None = None
    chat_id: int | None = None
    from_seq: int | None = None
    to_seq: int | None = None
    model: str | None = None
    fed_by: list[int] = field(default_factory=list)
    # The person whose turn said it, when extraction took it from a chat between named people:
    # the item is about them (core/extract.py writes the speaker's "I" as their name).
    speaker: str | None = None


def nearest(
    conn: Conn,
    store_id: str,
    person: str | None,
    embedding: np.ndarray,
    k: int,
    pool: DedupPool | None = None,
) -> list[tuple[Item, np.ndarray]]:
    """The k current (or archived) items closest to the embedding among the person's own (the
    shared ones for a shared candidate), closest first, with their vectors. With a pool it is
    done in memory and only the chosen rows are read (and checked to be still current)."""
    among = None if pool is None else pool.vectors.nearest(person, embedding, k)
    return item_vectors.nearest(conn, store_id, person, embedding, k, among)


class DedupPool:
    """A store's item vectors in memory for a run of many saves (core/vector_pool.py). The
    run's own saves update it as they happen; `refresh()`, called at the start of each
    transaction, takes in what other writers changed since, from the change feed (every create,
    merge, supersede, archive, restore and delete is an event there)."""

    def __init__(self, conn: Conn, store_id: str, dim: int) -> None:
        self.store_id = store_id
        self.vectors = VectorPool(dim)
        self.seen = events_db.last_event_id(conn, store_id)
        # Who said each turn: a turn is never changed once written, so what was asked holds
        # for the pool's life, across its transactions.
        self.speakers = Speakers()
        for item_id, person, vec in item_vectors.store_vectors(conn, store_id):
            self.vectors.put(item_id, person, vec)

    def lock_and_refresh(self, conn: Conn, persons: Iterable[str | None]) -> None:
        """At the start of a transaction: take the dedup locks of these persons (in one order,
        so two runs cannot deadlock), then take in what other writers committed since the last
        refresh. Saves through this pool in the transaction then skip their own lock."""
        items_db.lock_persons(conn, self.store_id, persons)
        self.refresh(conn)

    def refresh(self, conn: Conn) -> None:
        last = events_db.last_event_id(conn, self.store_id)
        if last == self.seen:
            return
        for item_id, person, vec in item_vectors.changed_vectors(
            conn, self.store_id, self.seen, last
        ):
            if vec is None:
                self.vectors.drop(item_id)
            else:
                self.vectors.put(item_id, person, vec)
        self.seen = last


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def other_sentence_of_turn(item: ItemInput, prov: Provenance, stored: Item) -> bool:
    """Whether a stored item was taken from another sentence of the very turn the candidate
    comes from. Extraction splits a turn into its durable sentences, each a fact of its own
    ("I mentor a transgender teen. We had a great time at the pride event"): they share the
    turn's topic and speaker (and, with sentence vectors from the turn's pass, most of their
    vector), so a judge reading cosines would merge or supersede one into the other and lose
    it. Only the same words said again (the turn extracted anew) are the same item."""
    if prov.chat_id is None or prov.from_seq is None or stored.chat_id != prov.chat_id:
        return False
    if (stored.from_seq, stored.to_seq) != (prov.from_seq, prov.to_seq):
        return False
    return _words(stored.context) != _words(item.context)


def said_by_others(
    conn: Conn,
    prov: Provenance,
    near: list[tuple[Item, np.ndarray]],
    speakers: Speakers | None = None,
) -> set[int]:
    """The neighbours taken from turns another person said, about that person: in another
    chat (Tom's "arthroscopy on October 14th" in his is not Priya's "back on April 10th" in
    hers), or in the candidate's chat when they name who said them ("Caroline painted a
    sunset" is not "Melanie painted a sunset"). They are neither the fact to confirm nor the
    one to replace, whatever their cosine. In the candidate's chat, what another person said
    of a third ("His teacher is Mrs Okonjo") is shown, and anywhere what names the candidate's
    speaker too ("Schedule: Theo's with Leah in the week, Ravi has him every other weekend",
    said by Leah): a parent may put right what the other parent said. A candidate with no
    speaker (a save not taken from a turn) hides nothing."""
    if prov.speaker is None:
        return set()
    me = prov.speaker.lower()
    texts = {r.item_id: r.context for r, _ in near}
    by_chat: dict[int, dict[int, int]] = {}
    for r, _ in near:
        if r.chat_id is not None and r.to_seq and not names_person(r.context, prov.speaker):
            by_chat.setdefault(r.chat_id, {})[r.item_id] = r.to_seq
    ask = people_speaking if speakers is None else speakers.of
    out: set[int] = set()
    for chat, seqs in by_chat.items():
        said = ask(conn, chat, seqs.values())
        out |= {
            i
            for i, seq in seqs.items()
            if seq in said
            and said[seq].lower() != me
            and (chat != prov.chat_id or names_person(texts[i], said[seq]))
        }
    return out
