-- +goose Up
-- On-demand jobs run on River (platform/jobs); River's own migrations made
-- river.river_job before this folder runs. What River does not keep lives
-- beside its row: the id clients poll (a uuid, as the old queue's), who asked
-- for the job, its progress steps and its result or the reason it failed.
-- River's cleaner deletes finished jobs after jobs.retention; these rows go
-- with them.
CREATE TABLE platform.job_progress (
  job_id     bigint PRIMARY KEY REFERENCES river.river_job (id) ON DELETE CASCADE,
  public_id  uuid NOT NULL UNIQUE,
  kind       text NOT NULL,
  owner_id   bigint,
  steps      jsonb NOT NULL DEFAULT '[]',
  result     jsonb,
  error      text,
  started_at timestamptz
);
-- A person's recent jobs of some kinds, newest first.
CREATE INDEX job_progress_owner_idx ON platform.job_progress (owner_id, kind, job_id DESC)
  WHERE owner_id IS NOT NULL;

-- The old queue's jobs move to River keeping their ids, steps and outcomes.
-- Waiting ones, and running ones (their worker stopped with the old code),
-- become available at once; each keeps the runs it had, and one more is
-- allowed for the run a dead worker's job is given up on (as River's
-- max_attempts is set by platform/jobs). Finished ones keep their state as
-- long as River keeps finished jobs, so clients still find them.
CREATE TEMPORARY TABLE moved ON COMMIT DROP AS
  SELECT j.*, nextval(pg_get_serial_sequence('river.river_job', 'id')) AS river_id
  FROM platform.jobs j ORDER BY j.created_at;

INSERT INTO river.river_job (id, state, attempt, max_attempts, attempted_at, created_at, finalized_at,
    scheduled_at, priority, args, kind, metadata, queue, errors)
SELECT river_id,
  (CASE status WHEN 'completed' THEN 'completed' WHEN 'failed' THEN 'discarded'
     WHEN 'cancelled' THEN 'cancelled' ELSE 'available' END)::river.river_job_state,
  attempts, greatest(max_attempts, attempts) + 1, started_at, created_at,
  CASE WHEN status IN ('completed', 'failed', 'cancelled') THEN coalesce(finished_at, updated_at) END,
  now(), 1, payload, kind,
  -- The enqueuing request's trace context moves where River keeps it; a
  -- cancelled job is marked as River marks one a person cancelled.
  coalesce(trace, '{}') || CASE WHEN status = 'cancelled'
    THEN jsonb_build_object('cancel_attempted_at', coalesce(finished_at, updated_at)) ELSE '{}' END,
  'default',
  CASE WHEN status = 'failed' THEN ARRAY[jsonb_build_object('at', coalesce(finished_at, updated_at),
    'attempt', attempts, 'error', coalesce(error, ''), 'trace', '')] END
FROM moved;

INSERT INTO platform.job_progress (job_id, public_id, kind, owner_id, steps, result, error, started_at)
SELECT river_id, id, kind, owner_id, steps, result, error, started_at FROM moved;

DROP TABLE platform.jobs;

-- +goose Down
CREATE TABLE platform.jobs (
  id           uuid PRIMARY KEY,
  kind         text NOT NULL,
  owner_id     bigint,
  status       text NOT NULL CHECK (status IN ('pending','running','completed','failed','cancelled')),
  payload      jsonb NOT NULL DEFAULT '{}',
  steps        jsonb NOT NULL DEFAULT '[]',
  result       jsonb,
  error        text,
  attempts     int NOT NULL DEFAULT 0,
  max_attempts int NOT NULL,
  worker       text,
  lease_until  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  trace        jsonb
);
CREATE INDEX jobs_live_idx ON platform.jobs (created_at) WHERE status IN ('pending','running');
CREATE INDEX jobs_owner_idx ON platform.jobs (owner_id, kind, created_at DESC);

INSERT INTO platform.jobs (id, kind, owner_id, status, payload, steps, result, error, attempts, max_attempts,
    created_at, started_at, finished_at, trace)
SELECT p.public_id, p.kind, p.owner_id,
  CASE WHEN j.state = 'completed' THEN 'completed'
       WHEN j.metadata ? 'cancel_attempted_at' THEN 'cancelled'
       WHEN j.state IN ('cancelled', 'discarded') THEN 'failed'
       ELSE 'pending' END,
  j.args, p.steps, p.result, p.error, j.attempt, greatest(j.max_attempts - 1, 1),
  j.created_at, p.started_at, j.finalized_at,
  nullif(jsonb_strip_nulls(jsonb_build_object('traceparent', j.metadata->'traceparent',
    'tracestate', j.metadata->'tracestate')), '{}')
FROM platform.job_progress p JOIN river.river_job j ON j.id = p.job_id;

DROP TABLE platform.job_progress;
