-- 008: the change feed in commit order, overdue commitments announced once, the commitment
-- views, and the background jobs that activate one at a time behind an evaluation.

-- ---- change feed ------------------------------------------------------------------------------
-- A subscriber reads `event_id > cursor` and moves its cursor to the last id it saw. Identity
-- values are taken at INSERT, so under concurrent writers a smaller id can commit after a larger
-- one, and a subscriber that already passed it would never see it. So the id is taken again at
-- COMMIT: a deferred trigger, under a per-store advisory lock held until the transaction ends,
-- sets event_id to the next value of the same identity. Within a store, ids then increase in
-- commit order (the lock is released only after the commit is visible), so `event_id > cursor`
-- loses nothing. The lock is held from the trigger to the end of the commit only, not for the
-- writer's whole transaction. The provisional ids leave gaps; gaps mean nothing.
-- Every event is announced on channel `memory_events` with {"store_id", "event_id"}; NOTIFY is
-- transactional, so it is delivered on commit, and never for a rolled-back write.
CREATE FUNCTION events_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    final_id bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('memory_events:' || NEW.store_id, 0));
    UPDATE events SET event_id = DEFAULT WHERE event_id = NEW.event_id
        RETURNING event_id INTO final_id;
    IF final_id IS NOT NULL THEN
        PERFORM pg_notify('memory_events',
            json_build_object('store_id', NEW.store_id, 'event_id', final_id)::text);
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER events_commit_order AFTER INSERT ON events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_commit_order();
COMMENT ON TABLE events IS
    'The change feed: create, merge, supersede, archive, restore, delete, contest, fulfil, '
    'cancel, evolve, overdue, ... Within a store, event_id increases in commit order (see '
    '008_feed_jobs.sql), so a subscriber resumes with event_id > its cursor.';

-- An overdue commitment is announced once, however often the sensor ticks.
CREATE UNIQUE INDEX events_overdue_once ON events (item_id) WHERE kind = 'overdue';
CREATE INDEX items_open_commitments_idx ON agent_memory_items (due_at)
    WHERE category = 'commitment' AND status = 'open';

-- ---- commitments for analysts ---------------------------------------------------------------
-- A superseded commitment is an old wording of one its successor carries on; it is left out.
CREATE VIEW open_commitments AS
SELECT item_id, store_id, person_id, context, due_at, owed_to, confidence, overdue, created_at
FROM commitments WHERE status = 'open' AND state = 'current';
COMMENT ON VIEW open_commitments IS
    'Open commitments that reach turns (state current), with the overdue flag.';

CREATE VIEW overdue_commitments AS
SELECT item_id, store_id, person_id, context, due_at, owed_to, confidence,
       now() - due_at AS overdue_by, created_at
FROM commitments WHERE status = 'open' AND state = 'current' AND overdue;
COMMENT ON VIEW overdue_commitments IS
    'Open, current commitments past their due time; each is announced once on the event feed '
    '(events.kind = overdue).';
COMMENT ON COLUMN overdue_commitments.overdue_by IS 'how long past due_at, as of the query';

CREATE VIEW fulfilled_commitments AS
SELECT c.item_id, c.store_id, c.person_id, c.context, c.due_at, c.owed_to, c.state,
       f.at AS fulfilled_at,
       (f.at > c.due_at) AS late
FROM commitments c
LEFT JOIN LATERAL (SELECT max(v.changed_at) AS at FROM item_versions v
                   WHERE v.item_id = c.item_id AND v.change = 'fulfil') f ON true
WHERE c.status = 'fulfilled' AND c.state <> 'superseded';
COMMENT ON VIEW fulfilled_commitments IS 'Commitments kept (memory-pipelines commitments fulfil).';
COMMENT ON COLUMN fulfilled_commitments.fulfilled_at IS 'when it was marked fulfilled';
COMMENT ON COLUMN fulfilled_commitments.late IS 'marked fulfilled after its due time';

CREATE VIEW cancelled_commitments AS
SELECT c.item_id, c.store_id, c.person_id, c.context, c.due_at, c.owed_to, c.state,
       f.at AS cancelled_at
FROM commitments c
LEFT JOIN LATERAL (SELECT max(v.changed_at) AS at FROM item_versions v
                   WHERE v.item_id = c.item_id AND v.change = 'cancel') f ON true
WHERE c.status = 'cancelled' AND c.state <> 'superseded';
COMMENT ON VIEW cancelled_commitments IS 'Commitments withdrawn (memory-pipelines commitments cancel).';
COMMENT ON COLUMN cancelled_commitments.cancelled_at IS 'when it was marked cancelled';

CREATE VIEW commitments_by_person AS
SELECT store_id, person_id, owed_to, status, coalesce(overdue, false) AS overdue,
       count(*) AS n, min(due_at) AS next_due
FROM commitments WHERE state <> 'superseded'
GROUP BY store_id, person_id, owed_to, status, coalesce(overdue, false);
COMMENT ON VIEW commitments_by_person IS
    'Commitment counts per store, person (NULL = shared), owed_to and status, overdue apart.';
COMMENT ON COLUMN commitments_by_person.n IS 'how many commitments';
COMMENT ON COLUMN commitments_by_person.next_due IS 'the earliest due time among them';

-- ---- background jobs behind an evaluation ---------------------------------------------------
-- One row per evaluation run: the store's own retrieval measured without and with the job's
-- fields (memory_pipelines/evals/activation.py).
CREATE TABLE job_evaluations (
    evaluation_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id      text NOT NULL REFERENCES stores ON DELETE CASCADE,
    job           text NOT NULL CHECK (job IN ('reflection', 'evolution', 'decay')),
    metric        text NOT NULL,
    baseline      double precision NOT NULL,
    with_job      double precision NOT NULL,
    passed        boolean NOT NULL,
    detail        jsonb NOT NULL DEFAULT '{}',
    ran_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_evaluations_store_idx ON job_evaluations (store_id, job, ran_at);
COMMENT ON TABLE job_evaluations IS
    'Evaluations gating the background jobs: metric without (baseline) and with the job.';
COMMENT ON COLUMN job_evaluations.passed IS 'with_job did not fall below baseline - tolerance';

-- Which jobs a store has switched on. Ranking consumes a job's fields (decay salience,
-- reflection insights) only while its row here is active.
CREATE TABLE job_activations (
    store_id      text NOT NULL REFERENCES stores ON DELETE CASCADE,
    job           text NOT NULL CHECK (job IN ('reflection', 'evolution', 'decay')),
    active        boolean NOT NULL,
    activated_at  timestamptz,
    evaluation    jsonb NOT NULL DEFAULT '{}',
    passed        boolean NOT NULL,
    forced        boolean NOT NULL DEFAULT false,
    actor         text NOT NULL DEFAULT '',
    changed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (store_id, job)
);
COMMENT ON TABLE job_activations IS
    'Background jobs per store: active or not, when activated, the evaluation that allowed it.';
COMMENT ON COLUMN job_activations.evaluation IS 'the job_evaluations row it was activated on';
COMMENT ON COLUMN job_activations.forced IS
    'activated within the one-at-a-time gap of another job, on purpose';
