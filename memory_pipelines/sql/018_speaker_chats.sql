-- 018: which names of a question speak in a chat the reader may see (store/entities.
-- speakers_among). The speaker index gains the chat: the lookup then reads only the index
-- (no heap fetch per turn) while it checks each turn's chat against the reader's. The old
-- two-column index is a prefix of the new one, so what used it (entity_names, the speaker
-- graph's exact path) uses the new one.
CREATE INDEX turns_speaker_chat_idx ON turns (store_id, lower(speaker), chat_id);
DROP INDEX turns_speaker_idx;
