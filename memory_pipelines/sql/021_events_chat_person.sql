-- 021: whose chat a record was written in, kept on its events when they are written. The feed
-- hides the key that wrote a record in a chat the reader may not see (as the record and its
-- history do); decided at read time from the record, a deleted record's earlier events named
-- that key again. NULL: not written in a person's chat (a shared chat, none, or no record).
ALTER TABLE events ADD COLUMN chat_person_id text;

UPDATE events e SET chat_person_id = c.person_id
  FROM agent_memory_items i JOIN chats c USING (chat_id)
 WHERE i.item_id = e.item_id AND c.person_id IS NOT NULL;

CREATE OR REPLACE FUNCTION events_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.person_id IS NULL AND NEW.item_id IS NOT NULL THEN
        NEW.person_id := coalesce(
            (SELECT person_id FROM agent_memory_items WHERE item_id = NEW.item_id),
            NEW.payload->>'person_id');
    END IF;
    IF NEW.chat_person_id IS NULL AND NEW.item_id IS NOT NULL THEN
        NEW.chat_person_id := (SELECT c.person_id FROM agent_memory_items i
                                 JOIN chats c USING (chat_id) WHERE i.item_id = NEW.item_id);
    END IF;
    RETURN NEW;
END $$;
