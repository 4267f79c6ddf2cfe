-- 021: whose chat a record was written in, kept on its events when they are written. The feed
-- hides the key that wrote a record in a chat the reader may not see (as the record and its
-- history do); decided at read time from the record, a deleted record's earlier events named
-- that key again. NULL: not written in a person's chat (a shared chat, none, or no record).
ALTER TABLE events ADD COLUMN chat_person_id text;

UPDATE events e SET chat_person_id = c.person_id
  FROM agent_memory_items i JOIN chats c USING (chat_id)
 WHERE i.item_id = e.item_id AND c.person_id IS NOT NULL;

CREATE OR REPLACE FUNCTION events_person() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owner text;
    chat_owner text;
BEGIN
    IF NEW.item_id IS NOT NULL THEN
        -- one lookup of the record: its person, and whose chat it was written in
        SELECT i.person_id, c.person_id INTO owner, chat_owner
          FROM agent_memory_items i LEFT JOIN chats c USING (chat_id)
         WHERE i.item_id = NEW.item_id;
        NEW.person_id := coalesce(NEW.person_id, owner, NEW.payload->>'person_id');
        NEW.chat_person_id := coalesce(NEW.chat_person_id, chat_owner);
    END IF;
    RETURN NEW;
END $$;
