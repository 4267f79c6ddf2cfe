-- 017: which words of a question name an entity of a store's current items
-- (store/entities.entity_names). The GIN index over `entities` holds every store's entities
-- together: asked whether a word that no item names ("What") is an entity of one store, the
-- planner scanned every item (the index had no statistics for the word: 62 ms at 100,000
-- items, 320 ms cold), and a name common in other stores would have its rows of all stores
-- read. Keyed by store and entity together, a lookup reads only the store's own.
CREATE FUNCTION store_entities(store text, entities text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN ARRAY(SELECT store || E'\x1f' || e FROM unnest(entities) AS e);

CREATE INDEX items_store_entities_idx ON agent_memory_items
    USING gin (store_entities(store_id, entities)) WHERE state = 'current';
