-- 006: the store's own content for recall's `basic` (documents) and `email` scopes, one row per
-- passage so a long document is found by the part that answers.
CREATE TABLE documents (
    passage_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id     text NOT NULL REFERENCES stores ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('basic', 'email')),
    external_id  text NOT NULL,            -- the document or message id
    part         integer NOT NULL DEFAULT 1,
    title        text NOT NULL DEFAULT '',  -- title, or an email's subject
    text         text NOT NULL,
    sender       text,
    recipients   text[] NOT NULL DEFAULT '{}',
    person_id    text,                      -- NULL: shared with every turn of the store
    created_at   timestamptz NOT NULL DEFAULT now(),  -- written, or an email's sent time
    embedding    vector(384) NOT NULL,
    tsv          tsvector GENERATED ALWAYS AS (
                     to_tsvector('english', title || ' ' || text)) STORED,
    UNIQUE (store_id, kind, external_id, part),
    FOREIGN KEY (store_id, person_id) REFERENCES persons (store_id, person_id)
);
CREATE INDEX documents_store_idx ON documents (store_id, kind, created_at);
CREATE INDEX documents_tsv_idx ON documents USING gin (tsv);
COMMENT ON TABLE documents IS
    'Documents (kind basic) and emails (kind email) of a store, split into passages for recall.';
