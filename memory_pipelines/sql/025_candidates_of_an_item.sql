-- 025: the extracted candidates that made or confirmed an item, found by the item: deleting a
-- record blanks their text and vector (store/items.py, delete_item), which outlived the record
-- (the words it said, kept in extraction_candidates.payload for analysts).
CREATE INDEX extraction_candidates_item ON extraction_candidates (item_id)
    WHERE item_id IS NOT NULL;
