-- 009: a vector for each sentence of a turn, taken from the turn's own embedding pass (the mean
-- of the sentence's contextual token vectors: "late chunking"), so the extractor's candidates,
-- which restate a sentence, need no second pass of the model; and each candidate's vector kept
-- with it between the extraction stages.
CREATE TABLE turn_sentences (
    turn_id     bigint NOT NULL REFERENCES turns ON DELETE CASCADE,
    ord         smallint NOT NULL,
    start_char  integer NOT NULL,
    end_char    integer NOT NULL,
    embedding   vector(384) NOT NULL,
    PRIMARY KEY (turn_id, ord)
);
COMMENT ON TABLE turn_sentences IS
    'One row per sentence of a turn (as the save policy splits it): its characters '
    'text[start_char:end_char] and its vector from the turn''s embedding pass.';

ALTER TABLE extraction_candidates ADD COLUMN embedding vector(384);
COMMENT ON COLUMN extraction_candidates.embedding IS
    'The candidate''s vector when the extractor had it (the local one: its sentence''s); '
    'NULL means it is embedded when applied.';
