-- 002: analyst-facing views. Columns are documented with COMMENT so \d+ shows them.

CREATE VIEW current_memory_items AS
SELECT item_id, store_id, person_id, category, context, body, confidence, importance,
       tags, entities, keywords, valid_from, contested, source, origin, trusted, written_by,
       chat_id, from_seq, to_seq, model, fed_by, status, due_at, owed_to,
       access_count, last_recalled_at, last_confirmed_at, confirm_count, created_at, updated_at
FROM agent_memory_items
WHERE state = 'current';
COMMENT ON VIEW current_memory_items IS
    'Memory items that reach a model: state current. One row per distilled fact.';
COMMENT ON COLUMN current_memory_items.person_id IS 'whom the record is for; NULL = shared';
COMMENT ON COLUMN current_memory_items.category IS 'open slug: preference, decision, lesson, fact, commitment, ...';
COMMENT ON COLUMN current_memory_items.context IS 'the one-line fact';
COMMENT ON COLUMN current_memory_items.confidence IS '1-10 as stored; user-stated outranks inferred';
COMMENT ON COLUMN current_memory_items.source IS 'user = stated by a person, machine = proposed by a model';
COMMENT ON COLUMN current_memory_items.origin IS 'explicit (written with a key), derived (during a turn), outside (no conversation)';
COMMENT ON COLUMN current_memory_items.trusted IS 'whether the store vouches for the record';
COMMENT ON COLUMN current_memory_items.chat_id IS 'provenance: the conversation it came from';
COMMENT ON COLUMN current_memory_items.from_seq IS 'provenance: first turn seq it came from';
COMMENT ON COLUMN current_memory_items.to_seq IS 'provenance: last turn seq it came from';
COMMENT ON COLUMN current_memory_items.fed_by IS 'ids of the items that fed a derived record';
COMMENT ON COLUMN current_memory_items.access_count IS 'how often recall returned it';
COMMENT ON COLUMN current_memory_items.confirm_count IS 'how often the fact was said again';

CREATE VIEW item_history AS
SELECT v.item_id, v.store_id, v.version, v.change, v.actor, v.changed_at,
       v.snapshot ->> 'context' AS context,
       v.snapshot ->> 'state' AS state,
       (v.snapshot ->> 'confidence')::int AS confidence,
       (v.snapshot ->> 'valid_from')::timestamptz AS valid_from,
       (v.snapshot ->> 'valid_until')::timestamptz AS valid_until,
       v.snapshot
FROM item_versions v;
COMMENT ON VIEW item_history IS
    'Every version of every item, one row per change; order by item_id, version for oldest first.';
COMMENT ON COLUMN item_history.change IS 'what made this version: create, merge, supersede, superseded, archive, restore, update';
COMMENT ON COLUMN item_history.actor IS 'who or what made the change';
COMMENT ON COLUMN item_history.snapshot IS 'the whole item as it was after the change';

CREATE VIEW commitments AS
SELECT item_id, store_id, person_id, context, body, status, due_at, owed_to, confidence,
       state, created_at, updated_at,
       (status = 'open' AND due_at IS NOT NULL AND due_at < now()) AS overdue
FROM agent_memory_items
WHERE category = 'commitment';
COMMENT ON VIEW commitments IS 'What was promised, to whom and by when.';
COMMENT ON COLUMN commitments.status IS 'open, fulfilled or cancelled';
COMMENT ON COLUMN commitments.due_at IS 'when it is due (NULL if no time was said)';
COMMENT ON COLUMN commitments.owed_to IS 'whom it is owed to';
COMMENT ON COLUMN commitments.overdue IS 'open and past its due time';
