-- 019: the BM25 index over items covers every item, not only current ones. pg_textsearch 1.0
-- builds an index (CREATE INDEX on a filled table, REINDEX) from every row, ignoring a partial
-- index's WHERE, while the planner trusts that WHERE and drops `state = 'current'` from a query
-- that scans the index: after a rebuild, superseded and archived items came back from search as
-- if current. Without the WHERE the query's own `state = 'current'` is always checked.
-- store/text_indexes.py rebuilds these indexes when their document count drifts.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'items_words_bm25') THEN
        DROP INDEX items_words_bm25;
        CREATE INDEX items_words_bm25 ON agent_memory_items USING bm25 (words)
            WITH (text_config = 'english', k1 = 0.9, b = 0.4);
    END IF;
END $$;
