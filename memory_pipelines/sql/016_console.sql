-- 016: the console's Commitments segment (api/commitments.organisation_commitments): every
-- commitment of an organisation's stores, the one due soonest first, with the total. Without
-- this index the `commitments` view's category filter read every item of the stores (300 ms
-- at 100,000 records that hold no commitment); with it, only the commitments are read.
CREATE INDEX items_commitments_idx ON agent_memory_items (store_id, due_at, item_id)
    WHERE category = 'commitment';
