-- 023: which level-1 chunks over an item's turns linkgen saw when it read the item.
--
-- An item goes back to linkgen when a level-1 chunk covers its turns after it was read (its
-- decided_in / discussed_in link needs the chunk). "After" was the chunk's created_at against
-- the read time; a chunk's created_at is its transaction's start, so a pyramid batch begun
-- before linkgen read and committed after it had a created_at before the read and was never
-- offered. The ids of the chunks seen say it whatever the commit order.
ALTER TABLE linkgen_items ADD COLUMN chunks_seen bigint[] NOT NULL DEFAULT '{}';

-- What the old rule counted as seen: the chunks created before the read.
UPDATE linkgen_items g SET chunks_seen = coalesce((
    SELECT array_agg(c.chunk_id ORDER BY c.chunk_id)
    FROM agent_memory_items i JOIN chunks c ON c.chat_id = i.chat_id AND c.level = 1
        AND c.from_seq <= i.from_seq AND c.to_seq >= coalesce(i.to_seq, i.from_seq)
    WHERE i.item_id = g.item_id AND c.created_at <= g.read_at), '{}');
