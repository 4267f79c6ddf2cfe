"""Auto-recall at the start of every turn: an index-backed search of the user's message (no
model call), the top hits within a token budget, logged to agent_roi_injections."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from memory_pipelines.api.boot import boot_window
from memory_pipelines.api.recall import ALL_SCOPES, MAX_QUERY, Recall
from memory_pipelines.core import decay as decay_math
from memory_pipelines.core import injection, relevance
from memory_pipelines.core.boot import DEFAULT_BUDGET
from memory_pipelines.core.inputs import id_field
from memory_pipelines.core.records import optional_int, text_field
from memory_pipelines.core.types import AutoRecall, Hit
from memory_pipelines.errors import ValidationError
from memory_pipelines.store import commitments as commitments_db
from memory_pipelines.store import item_reads
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store import turns as turns_db
from memory_pipelines.store.db import Conn
from memory_pipelines.store.injections import record_injection

MIN_COSINE = 0.35  # below this a hit is not about the message (all-MiniLM-L6-v2 cosines)
CANDIDATES = 12
BOOT_BUDGET = DEFAULT_BUDGET


def autorecall(
    recall: Recall,
    chat: str,
    user_message: str,
    *,
    person: str | None = None,
    budget_tokens: int = 400,
    boot_budget_tokens: int = BOOT_BUDGET,
    turn_seq: int | None = None,
    trust_envelope: bool | None = None,
    decay_override: Mapping[str, Any] | None = None,
    on_read: Callable[[Conn, list[str]], None] | None = None,
) -> AutoRecall:
    """What to inject before the model answers `user_message` in `chat`: the messages to
    prepend, the records they carry, their tokens and what was skipped (AutoRecall). Nothing
    is injected for generic messages, hits below the relevance threshold, or hits the boot
    window already holds. Open commitments ride first, whatever the message: in a shared chat
    the shared ones only (everyone there reads the reply), in a person's chat theirs too.

    `trust_envelope` is the setting of the key the turn runs under: True wraps the records in
    <untrusted source="memory">, False in [memory] lines; None follows the store's.
    Each memory line carries its confidence as read (1-10, one decimal): halved per half-life
    of its type since it was updated, `decay_override` (that key's decay per type) first, the
    store's Decay per type for the other types; as stored for a type neither names.
    `on_read(conn, refs)` gets every record injected (kind:id) in the transaction that counts
    and logs the injection (the HTTP API audits it there: if it raises, nothing is injected,
    counted or logged)."""
    for name, value in (
        ("budget_tokens", budget_tokens),
        ("boot_budget_tokens", boot_budget_tokens),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValidationError(name, f"must be a positive integer, got {value!r}")
    id_field("chat", chat)
    text_field("user_message", user_message, max_len=MAX_QUERY)
    id_field("person", person, nullable=True)
    optional_int("turn_seq", turn_seq, 1, 2**31 - 1)
    if trust_envelope is not None and not isinstance(trust_envelope, bool):
        raise ValidationError(
            "trust_envelope", f"must be true, false or None (the store's), got {trust_envelope!r}"
        )
    override = (
        decay_math.parse_half_lives(dict(decay_override), "decay_override")
        if decay_override
        else None
    )
    db, store_id, embedder = recall.db, recall.store_id, recall.embedder
    with db.connection() as conn:
        settings = stores_db.get_settings(conn, store_id)
        stores_db.require_person(conn, store_id, person)
        chat_id = turns_db.check_reader(conn, store_id, chat, person)
        # A shared chat's replies are read by everyone in it: the open commitments that ride
        # on each of its turns, whatever it says, are the shared ones only.
        carried_for = None if turns_db.get_chat(conn, store_id, chat).person_id is None else person
    # Each memory line's confidence as read: the key's decay per type first, the store's for
    # the rest (as search hits carry it); as stored when neither gives its type a half-life.
    half_lives = decay_math.reader_half_lives(settings.decay_per_type.half_life_days, override)
    now = datetime.now(UTC)
    skipped = {
        "below_threshold": 0,
        "in_boot_window": 0,
        "in_a_record": 0,
        "over_budget": 0,
        "small_talk": 0,
    }
    lines: list[dict[str, Any]] = []
    envelope = settings.trust_envelope if trust_envelope is None else trust_envelope

    # The budget caps all that is injected: the messages as rendered, the synthetic call and
    # its digest around the records included. Counted as they grow, not rendered again for
    # each line (20 renders took 35 ms): the frame once, each line's own text, and for each
    # kind of line the digest names, what "99 <kind>," costs (an upper bound of its words).
    frame = embedder.count_tokens(
        injection.injected_text(injection.render(user_message, [], envelope))
    )
    named: set[str] = set()
    estimate = frame

    def fits(line: dict[str, Any]) -> bool:
        nonlocal estimate
        cost = embedder.count_tokens(injection.data_line(line))
        if line["type"] not in named:
            cost += embedder.count_tokens(f"99 {line['type']},")
        if estimate + cost > budget_tokens:
            skipped["over_budget"] += 1
            return False
        lines.append(line)
        named.add(line["type"])
        estimate += cost
        return True

    # Open commitments ride along first (the card says a turn always carries them), inside the
    # same budget; the topical hits fill what is left.
    carried: set[int] = set()
    carry = settings.commitments.carry_open and settings.commitments.most_carried > 0
    if carry:
        with db.connection() as conn:
            open_ones = commitments_db.open_commitments(
                conn, store_id, carried_for, settings.commitments.most_carried
            )
        for c in open_ones:
            if fits(injection.commitment_line(c)):
                carried.add(c.item_id)
    hits: list[Hit] = []
    if user_message.strip() and not relevance.is_generic(user_message):
        # No model call on the way to a turn (the spec's "index-backed, no model call"): the
        # Search card's reranker serves searches, not the start of every turn.
        hits = recall.search(
            user_message, ALL_SCOPES, person=person, k=CANDIDATES, touch=False, rerank=False
        )
    in_window = {
        (r.kind, r.id)
        for r in boot_window(db, store_id, chat, boot_budget_tokens, embedder, person).records
    }

    def passed_over(h: Hit) -> str | None:
        """Why a hit is not injected before its cost is weighed (None: it may be)."""
        if (
            h.kind == "item"
            and h.extra.get("category") == "commitment"
            and (carry or h.extra.get("status") != "open" or h.id in carried)
        ):
            # Only open commitments reach a turn, each once; while the card carries them, only
            # those carried (the most_carried due soonest), never the rest through search.
            return "commitment"
        if h.extra.get("cos", 0.0) < MIN_COSINE:
            return "below_threshold"
        if relevance.is_generic(h.text):
            return "small_talk"  # "how are you?" found "I'm good, you?": nothing to add
        if (h.kind, h.id) in in_window:
            return "in_boot_window"
        return None

    # A turn whose fact a record among the hits carries (distilled from that very turn) says
    # it again: the record is injected, not the turn.
    told = {
        (h.chat_id, seq)
        for h in hits
        if h.kind == "item" and h.chat_id is not None and h.from_seq is not None
        and passed_over(h) is None
        for seq in range(h.from_seq, (h.to_seq or h.from_seq) + 1)
    }  # fmt: skip
    chosen = []
    for h in hits:
        why = passed_over(h)
        if why is None and h.kind == "turn" and (h.chat_id, h.from_seq) in told:
            why = "in_a_record"
        if why is not None:
            if why != "commitment":
                skipped[why] += 1
            continue
        # the hit's own kind and id last: a passage's extra holds its document kind ("basic")
        row = {**h.extra, "kind": h.kind, "id": h.id, "text": h.text, "at": h.at}
        if h.kind == "item" and h.extra.get("updated_at"):
            row["confidence"] = round(
                decay_math.confidence_as_read(
                    h.extra["confidence"],
                    h.extra["updated_at"],
                    half_lives.get(h.extra.get("category") or ""),
                    now,
                ),
                1,
            )
        if h.kind == "item":
            line = injection.memory_line(row)
        elif h.kind in ("document", "email"):
            line = injection.passage_line(row)
        else:
            line = injection.history_line(row)
        if fits(line):
            chosen.append(h)
    messages = injection.render(user_message, lines, envelope) if lines else []
    tokens = embedder.count_tokens(injection.injected_text(messages)) if messages else 0
    refs = [h.ref for h in chosen] + [f"item:{i}" for i in sorted(carried)]
    with db.transaction() as conn:
        item_reads.touch_items(conn, [h.id for h in chosen if h.kind == "item"] + sorted(carried))
        record_injection(
            conn,
            store_id,
            chat_id,
            turn_seq,
            person,
            refs,
            [round(float(h.extra.get("cos", 0.0)), 4) for h in chosen] + [0.0] * len(carried),
            tokens,
        )
        if on_read is not None:
            on_read(conn, refs)
    return AutoRecall(messages=messages, records=lines, tokens=tokens, skipped=skipped)
