-- 010: whose each event is, so a person's feed carries only shared events and their own.
-- An event about an item takes the item's person; a delete (the item is gone) names it in its
-- payload. Events about no item (job activations) are store-level, person NULL.
ALTER TABLE events ADD COLUMN person_id text;
COMMENT ON COLUMN events.person_id IS
    'whose record the event is about (NULL: a shared record, or no record); a person''s feed '
    'reads shared events and their own';

UPDATE events e SET person_id = i.person_id
  FROM agent_memory_items i WHERE i.item_id = e.item_id AND e.person_id IS NULL;
UPDATE events SET person_id = payload->>'person_id'
 WHERE person_id IS NULL AND kind = 'delete' AND payload ? 'person_id';

CREATE FUNCTION events_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.person_id IS NULL AND NEW.item_id IS NOT NULL THEN
        NEW.person_id := coalesce(
            (SELECT person_id FROM agent_memory_items WHERE item_id = NEW.item_id),
            NEW.payload->>'person_id');
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER events_person BEFORE INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_person();
