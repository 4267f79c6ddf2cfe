-- 022: two signals of one person's chat that reached another person.
--
-- Whose chat a version was written in, when it was a person's and not the record's own chat: a
-- save in Ben's chat that confirms (merges into) or replaces (supersedes) a shared record writes
-- a version of that record. Its history and the feed hide the key that wrote it from readers
-- who may not see Ben's chat, as they hide the key that wrote a record in a chat of its own
-- (021). NULL: written in no person's chat (a shared chat, none, or the record's own).
ALTER TABLE item_versions ADD COLUMN chat_person_id text;

-- The per-turn save budget, per person: in a shared chat each person's private saves, and the
-- shared ones, count apart. One budget for all told Ana (skipped: "budget") that Ben had saved
-- private records during the turn, and let his saves use up hers. '' stands for shared.
ALTER TABLE turn_saves ADD COLUMN person_id text NOT NULL DEFAULT '';
ALTER TABLE turn_saves DROP CONSTRAINT turn_saves_pkey;
ALTER TABLE turn_saves ADD PRIMARY KEY (chat_id, seq, person_id);
