-- 014: labels on records (set when written, read-only afterwards; the console shows one badge
-- per value), and the base tables analysts read documented column by column.
ALTER TABLE agent_memory_items ADD COLUMN labels text[] NOT NULL DEFAULT '{}';

-- Labels never change after the write: only a new version of the fact (a new record) has new
-- ones. A trigger, so no writer can forget it.
CREATE FUNCTION items_labels_read_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.labels IS DISTINCT FROM OLD.labels THEN
        RAISE EXCEPTION 'labels of memory item % are read-only after it is written', OLD.item_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER items_labels_read_only BEFORE UPDATE OF labels ON agent_memory_items
    FOR EACH ROW EXECUTE FUNCTION items_labels_read_only();

COMMENT ON TABLE agent_memory_items IS
    'Memory items: distilled, stable facts, every version kept (the spec''s agent_memory_items '
    'dataset). Read current ones through the view current_memory_items.';
COMMENT ON COLUMN agent_memory_items.item_id IS 'the record''s id';
COMMENT ON COLUMN agent_memory_items.store_id IS 'the store (index) the record lives in';
COMMENT ON COLUMN agent_memory_items.person_id IS
    'whom the record is for; NULL: shared, read by every turn of the store';
COMMENT ON COLUMN agent_memory_items.category IS
    'the record''s type (open slug: preference, decision, fact, lesson, commitment, insight, ...)';
COMMENT ON COLUMN agent_memory_items.context IS 'the one-line fact';
COMMENT ON COLUMN agent_memory_items.body IS 'longer text, optional';
COMMENT ON COLUMN agent_memory_items.confidence IS
    'confidence as stored, 1-10 (the console shows it as 0-1: confidence / 10)';
COMMENT ON COLUMN agent_memory_items.importance IS 'importance 1-10, optional';
COMMENT ON COLUMN agent_memory_items.tags IS 'free tags (unioned when a merge confirms the fact)';
COMMENT ON COLUMN agent_memory_items.entities IS
    'names of people, places and things the record mentions (the knowledge graph)';
COMMENT ON COLUMN agent_memory_items.keywords IS 'search keywords, optional';
COMMENT ON COLUMN agent_memory_items.edges IS
    'typed links given at write time: [{type, kind, target}]; the links table holds all links';
COMMENT ON COLUMN agent_memory_items.metadata IS 'application key/value pairs (Records filter)';
COMMENT ON COLUMN agent_memory_items.labels IS
    'labels set when the record was written, read-only afterwards (console: one badge each)';
COMMENT ON COLUMN agent_memory_items.valid_from IS
    'when the fact became true: given, else the time of the turn it was said in, else written';
COMMENT ON COLUMN agent_memory_items.valid_until IS
    'when a newer record replaced it (NULL: still valid)';
COMMENT ON COLUMN agent_memory_items.state IS 'current, superseded or archived';
COMMENT ON COLUMN agent_memory_items.superseded_by IS 'the record that replaced this one';
COMMENT ON COLUMN agent_memory_items.contested IS
    'maintenance judged it to contradict another record (never settled by the system)';
COMMENT ON COLUMN agent_memory_items.contested_with IS 'the records it contradicts';
COMMENT ON COLUMN agent_memory_items.source IS
    'user (stated by a person) or machine (proposed by a model; confidence at most 6)';
COMMENT ON COLUMN agent_memory_items.origin IS
    'explicit (an application with a key), derived (during a turn), outside (no conversation)';
COMMENT ON COLUMN agent_memory_items.trusted IS
    'whether the store vouches for it: explicit yes, outside no, derived as its least trusted feeder';
COMMENT ON COLUMN agent_memory_items.written_by IS 'the key or application that wrote it';
COMMENT ON COLUMN agent_memory_items.chat_id IS 'the conversation it was derived in';
COMMENT ON COLUMN agent_memory_items.from_seq IS 'first turn (seq) of the conversation it came from';
COMMENT ON COLUMN agent_memory_items.to_seq IS 'last turn (seq) of the conversation it came from';
COMMENT ON COLUMN agent_memory_items.model IS 'the model that derived it, if any';
COMMENT ON COLUMN agent_memory_items.fed_by IS 'ids of the items that fed a derived record';
COMMENT ON COLUMN agent_memory_items.status IS 'a commitment''s status: open, fulfilled, cancelled';
COMMENT ON COLUMN agent_memory_items.due_at IS 'when a commitment is due';
COMMENT ON COLUMN agent_memory_items.owed_to IS 'whom a commitment is owed to';
COMMENT ON COLUMN agent_memory_items.access_count IS
    'how often recall returned it (search, by_period, neighbours; each auto-recall injection)';
COMMENT ON COLUMN agent_memory_items.last_recalled_at IS 'when recall last returned it';
COMMENT ON COLUMN agent_memory_items.last_confirmed_at IS 'when the fact was last said again';
COMMENT ON COLUMN agent_memory_items.confirm_count IS 'how often the fact was said again';
COMMENT ON COLUMN agent_memory_items.created_at IS 'when the record was written';
COMMENT ON COLUMN agent_memory_items.updated_at IS
    'when it was written or last changed (the decay clock starts here)';
COMMENT ON COLUMN agent_memory_items.embedding IS 'the context''s embedding (all-MiniLM-L6-v2)';
COMMENT ON COLUMN agent_memory_items.tsv IS 'the words of context and body, for lexical search';

COMMENT ON TABLE agent_roi_injections IS
    'Every auto-recall at the start of a turn: what was injected into the model''s context.';
COMMENT ON COLUMN agent_roi_injections.injection_id IS 'the injection''s id';
COMMENT ON COLUMN agent_roi_injections.store_id IS 'the store recalled from';
COMMENT ON COLUMN agent_roi_injections.chat_id IS 'the conversation of the turn';
COMMENT ON COLUMN agent_roi_injections.turn_seq IS 'the turn it was made for, when given';
COMMENT ON COLUMN agent_roi_injections.person_id IS 'whom the turn was for (NULL: nobody)';
COMMENT ON COLUMN agent_roi_injections.hit_ids IS
    'the records injected, as kind:id (items, turns, chunks, documents; carried commitments)';
COMMENT ON COLUMN agent_roi_injections.scores IS
    'each injected hit''s cosine to the message (0 for a carried commitment)';
COMMENT ON COLUMN agent_roi_injections.tokens IS 'tokens injected, within the turn''s budget';
COMMENT ON COLUMN agent_roi_injections.created_at IS 'when';

COMMENT ON COLUMN read_audit.audit_id IS 'the audit row''s id (rows are never changed or deleted)';
COMMENT ON COLUMN read_audit.actor IS
    'an internal reader by name (a job, the CLI), when no key or account read';
COMMENT ON COLUMN read_audit.endpoint IS 'what was read: the endpoint or console page';
COMMENT ON COLUMN read_audit.record_ids IS 'the ids of exactly the records returned';
COMMENT ON COLUMN read_audit.filters IS
    'the filters, paging and person the read was made with (never a secret)';
COMMENT ON COLUMN read_audit.at IS 'when';
COMMENT ON COLUMN read_audit.key_id IS 'the API key that read (its public prefix id)';
COMMENT ON COLUMN read_audit.account_id IS 'the administrator account that read in the console';
