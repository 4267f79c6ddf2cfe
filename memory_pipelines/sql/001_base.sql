-- 001: the memory store. Every row carries store_id; a store is a Dagster dynamic partition.
CREATE EXTENSION IF NOT EXISTS vector;

-- One row per store, its settings as the console's cards (decay per type, maintenance, search,
-- commitments, extraction). Defaults live in memory_pipelines/core/settings.py; {} = defaults.
CREATE TABLE stores (
    store_id        text PRIMARY KEY CHECK (store_id ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
    name            text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    decay_per_type  jsonb NOT NULL DEFAULT '{}',
    maintenance     jsonb NOT NULL DEFAULT '{}',
    search          jsonb NOT NULL DEFAULT '{}',
    commitments     jsonb NOT NULL DEFAULT '{}',
    extraction      jsonb NOT NULL DEFAULT '{}',
    save_policy     jsonb NOT NULL DEFAULT '{}',
    trust_envelope  boolean NOT NULL DEFAULT true
);

CREATE TABLE persons (
    store_id    text NOT NULL REFERENCES stores ON DELETE CASCADE,
    person_id   text NOT NULL,
    name        text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (store_id, person_id)
);

CREATE TABLE chats (
    chat_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    text NOT NULL REFERENCES stores ON DELETE CASCADE,
    external_id text NOT NULL,
    key_id      text,            -- the API key / application whose conversation this is
    person_id   text,
    title       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- next_seq is taken under the row lock by each writer: seq stays dense and unique.
    next_seq    integer NOT NULL DEFAULT 1,
    UNIQUE (store_id, external_id)
);

CREATE TABLE turns (
    turn_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    text NOT NULL REFERENCES stores ON DELETE CASCADE,
    chat_id     bigint NOT NULL REFERENCES chats ON DELETE CASCADE,
    seq         integer NOT NULL CHECK (seq >= 1),
    created_at  timestamptz NOT NULL DEFAULT now(),
    role        text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    speaker     text NOT NULL DEFAULT '',
    text        text NOT NULL,
    trace_ref   text,
    external_id text,
    embedding   vector(384),   -- of "speaker: text", so a name in a question finds its turns
    -- Words of "speaker text" (weight A) and of the turn before (weight B): a reply is found by
    -- the question it answers. Set once at insert (see store/turns.py); doc_len is their BM25
    -- length, B words counting 0.3.
    tsv         tsvector NOT NULL,
    doc_len     real NOT NULL,
    UNIQUE (chat_id, seq),
    UNIQUE (chat_id, external_id)
);
CREATE INDEX turns_store_idx ON turns (store_id, turn_id);
CREATE INDEX turns_created_idx ON turns (store_id, created_at);
CREATE INDEX turns_tsv_idx ON turns USING gin (tsv);
CREATE INDEX turns_unembedded_idx ON turns (store_id) WHERE embedding IS NULL;
CREATE INDEX turns_speaker_idx ON turns (store_id, lower(speaker));

-- Turns are append-only: only the embedding may be filled in later.
CREATE FUNCTION turns_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.text, NEW.seq, NEW.chat_id, NEW.role, NEW.speaker, NEW.created_at,
        NEW.trace_ref, NEW.external_id)
       IS DISTINCT FROM
       (OLD.text, OLD.seq, OLD.chat_id, OLD.role, OLD.speaker, OLD.created_at,
        OLD.trace_ref, OLD.external_id) THEN
        RAISE EXCEPTION 'turns are append-only: turn % cannot be changed', OLD.turn_id;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER turns_append_only BEFORE UPDATE ON turns
    FOR EACH ROW EXECUTE FUNCTION turns_append_only();

-- Nodes of the history pyramid: level 1 covers 10 turns, level n covers 10 chunks of level n-1.
CREATE TABLE chunks (
    chunk_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id      text NOT NULL REFERENCES stores ON DELETE CASCADE,
    chat_id       bigint NOT NULL REFERENCES chats ON DELETE CASCADE,
    level         integer NOT NULL CHECK (level >= 1),
    seq           integer NOT NULL CHECK (seq >= 1),
    from_seq      integer NOT NULL,   -- first turn seq covered
    to_seq        integer NOT NULL,   -- last turn seq covered
    summary       text NOT NULL,
    period_start  timestamptz NOT NULL,
    period_end    timestamptz NOT NULL,
    units_covered integer NOT NULL,   -- children: turns for level 1, chunks above
    children      bigint[] NOT NULL,  -- turn_ids for level 1, chunk_ids above
    model         text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    embedding     vector(384),
    tsv           tsvector GENERATED ALWAYS AS (to_tsvector('english', summary)) STORED,
    UNIQUE (chat_id, level, seq),
    CHECK (from_seq <= to_seq)
);
CREATE INDEX chunks_store_idx ON chunks (store_id, period_start);
CREATE INDEX chunks_tsv_idx ON chunks USING gin (tsv);

-- Memory items: distilled, stable facts. The dataset the spec names.
CREATE TABLE agent_memory_items (
    item_id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id          text NOT NULL REFERENCES stores ON DELETE CASCADE,
    person_id         text,                       -- NULL = shared with every turn of the store
    category          text NOT NULL CHECK (category ~ '^[a-z][a-z0-9_-]{0,39}$'),
    context           text NOT NULL,
    body              text NOT NULL DEFAULT '',
    confidence        smallint NOT NULL CHECK (confidence BETWEEN 1 AND 10),
    importance        smallint CHECK (importance BETWEEN 1 AND 10),
    tags              text[] NOT NULL DEFAULT '{}',
    entities          text[] NOT NULL DEFAULT '{}',
    keywords          text[] NOT NULL DEFAULT '{}',
    edges             jsonb NOT NULL DEFAULT '[]',
    metadata          jsonb NOT NULL DEFAULT '{}',
    valid_from        timestamptz NOT NULL DEFAULT now(),
    valid_until       timestamptz,
    state             text NOT NULL DEFAULT 'current'
                      CHECK (state IN ('current', 'superseded', 'archived')),
    superseded_by     bigint REFERENCES agent_memory_items ON DELETE SET NULL,
    contested         boolean NOT NULL DEFAULT false,
    contested_with    bigint[] NOT NULL DEFAULT '{}',
    source            text NOT NULL DEFAULT 'user' CHECK (source IN ('user', 'machine')),
    origin            text NOT NULL CHECK (origin IN ('explicit', 'derived', 'outside')),
    trusted           boolean NOT NULL,
    written_by        text NOT NULL DEFAULT '',   -- key or application that wrote it
    -- provenance
    chat_id           bigint REFERENCES chats ON DELETE SET NULL,
    from_seq          integer,
    to_seq            integer,
    model             text,
    fed_by            bigint[] NOT NULL DEFAULT '{}',
    -- commitments
    status            text CHECK (status IN ('open', 'fulfilled', 'cancelled')),
    due_at            timestamptz,
    owed_to           text,
    -- use
    access_count      integer NOT NULL DEFAULT 0,
    last_recalled_at  timestamptz,
    last_confirmed_at timestamptz,
    confirm_count     integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    embedding         vector(384) NOT NULL,
    tsv               tsvector GENERATED ALWAYS AS (
                          to_tsvector('english', context || ' ' || body)) STORED,
    CHECK ((category = 'commitment') = (status IS NOT NULL)),
    CHECK (from_seq IS NULL OR to_seq IS NULL OR from_seq <= to_seq),
    FOREIGN KEY (store_id, person_id) REFERENCES persons (store_id, person_id)
);
CREATE INDEX items_store_state_idx ON agent_memory_items (store_id, state, person_id);
CREATE INDEX items_valid_from_idx ON agent_memory_items (store_id, valid_from);
CREATE INDEX items_tsv_idx ON agent_memory_items USING gin (tsv);
CREATE INDEX items_entities_idx ON agent_memory_items USING gin (entities);
CREATE INDEX items_chat_idx ON agent_memory_items (chat_id, from_seq);

-- Every version of an item, oldest first: a snapshot of the item after each change.
CREATE TABLE item_versions (
    version_id  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    item_id     bigint NOT NULL REFERENCES agent_memory_items ON DELETE CASCADE,
    store_id    text NOT NULL,
    version     integer NOT NULL,
    change      text NOT NULL,   -- create, merge, supersede, superseded, archive, restore, ...
    actor       text NOT NULL DEFAULT '',
    changed_at  timestamptz NOT NULL DEFAULT now(),
    snapshot    jsonb NOT NULL,
    UNIQUE (item_id, version)
);

-- Vector search is exact within a store (the store_id indexes narrow it, then cosine distance
-- over that store's rows). pgvector 0.6's HNSW index applies a store filter after its scan, so a
-- small store among large ones gets fewer than k neighbours back, and each insert into it cost
-- ~5 ms per row here. See README, "Vector search".

-- Typed links between objects, from the curated vocabulary only.
CREATE TABLE links (
    link_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    text NOT NULL REFERENCES stores ON DELETE CASCADE,
    src_kind    text NOT NULL CHECK (src_kind IN ('item', 'chunk', 'turn', 'chat')),
    src_id      bigint NOT NULL,
    dst_kind    text NOT NULL CHECK (dst_kind IN ('item', 'chunk', 'turn', 'chat')),
    dst_id      bigint NOT NULL,
    link_type   text NOT NULL CHECK (link_type IN ('relates_to', 'caused_by', 'supersedes',
                    'decided_in', 'part_of', 'owned_by', 'discussed_in')),
    confidence  real NOT NULL DEFAULT 1.0,
    model       text NOT NULL DEFAULT '',
    run_id      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (store_id, src_kind, src_id, dst_kind, dst_id, link_type)
);
CREATE INDEX links_dst_idx ON links (store_id, dst_kind, dst_id);

-- Every call to a model (judge, extractor, summariser, ...), so metered calls can be audited.
CREATE TABLE model_calls (
    call_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    text,
    tier        text NOT NULL,
    task        text NOT NULL,
    backend     text NOT NULL,
    model       text NOT NULL,
    tokens_in   integer NOT NULL DEFAULT 0,
    tokens_out  integer NOT NULL DEFAULT 0,
    latency_ms  real NOT NULL DEFAULT 0,
    run_id      text NOT NULL DEFAULT '',
    outcome     text NOT NULL,   -- ok, invalid, error
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_calls_store_idx ON model_calls (store_id, created_at);

-- Who read which records.
CREATE TABLE read_audit (
    audit_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    text NOT NULL,
    actor       text NOT NULL,
    action      text NOT NULL,
    item_ids    bigint[] NOT NULL DEFAULT '{}',
    detail      jsonb NOT NULL DEFAULT '{}',
    at          timestamptz NOT NULL DEFAULT now()
);

-- What auto-recall injected at the start of a turn (the spec's dataset name).
CREATE TABLE agent_roi_injections (
    injection_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id     text NOT NULL REFERENCES stores ON DELETE CASCADE,
    chat_id      bigint REFERENCES chats ON DELETE CASCADE,
    turn_seq     integer,
    person_id    text,
    hit_ids      text[] NOT NULL DEFAULT '{}',
    scores       real[] NOT NULL DEFAULT '{}',
    tokens       integer NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- The change feed: create, merge, supersede, archive, restore, delete, contest, ...
CREATE TABLE events (
    event_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    text NOT NULL,
    kind        text NOT NULL,
    item_id     bigint,
    actor       text NOT NULL DEFAULT '',
    payload     jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_store_idx ON events (store_id, event_id);

-- Saves made during a turn, for the per-turn budget.
CREATE TABLE turn_saves (
    chat_id   bigint NOT NULL REFERENCES chats ON DELETE CASCADE,
    seq       integer NOT NULL,
    saves     integer NOT NULL,
    PRIMARY KEY (chat_id, seq)
);

-- "Text already in history" checks look turns up by their normalised text.
CREATE INDEX turns_text_md5_idx ON turns (store_id, md5(lower(btrim(text))));
