-- 028: the records a record gave labels to (store/given_labels.py), found by the giver:
-- deleting a record takes back from them each label no record that gave it still holds.
-- Evolution's and maintenance's merge events name their givers from this version on.
CREATE INDEX events_givers ON events USING gin ((payload->'givers'))
    WHERE payload ? 'givers';
-- A record's own events, found by the record: taking a label back reads and scrubs the
-- receiver's events, and a delete strips the deleted record's (the store's index was by event).
CREATE INDEX events_item ON events (item_id) WHERE item_id IS NOT NULL;
