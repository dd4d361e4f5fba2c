-- +goose Up
-- The question-tag classification as it stood before a classification run
-- or a rollback: every (question, tag) pair, kept as two parallel arrays (a
-- 100k-question bank is a few MB per snapshot, read whole or not at all).
-- reason says what was about to change it; job_id ties a run's snapshot to
-- its job (one per job, so a resumed run does not snapshot its own partial
-- work); restores names the snapshot a rollback was about to restore.
CREATE TABLE bank.classification_snapshots (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind         text NOT NULL DEFAULT 'tags' CHECK (kind IN ('tags')),
  reason       text NOT NULL CHECK (reason IN ('classification', 'rollback')),
  job_id       uuid UNIQUE,
  restores     bigint,
  created_by   bigint,
  question_ids bigint[] NOT NULL,
  tag_ids      bigint[] NOT NULL,
  pairs        int NOT NULL,
  questions    int NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now() CHECK (created_at >= '2000-01-01'),
  CHECK (cardinality(question_ids) = cardinality(tag_ids) AND pairs = cardinality(question_ids))
);

-- +goose Down
DROP TABLE bank.classification_snapshots;
