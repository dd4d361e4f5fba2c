-- +goose Up
-- Problems learners report with what they read: a question, and later an
-- article or a card. kind names the owning module's kind of thing and
-- target_id its id there (no foreign key across schemas); title is the
-- target's title when reported, so the queue reads well even after the
-- target changes or goes.
CREATE TABLE feedback.reports (
  id              bigserial PRIMARY KEY,
  kind            text NOT NULL,
  target_id       bigint NOT NULL,
  title           text NOT NULL DEFAULT '',
  reporter_id     bigint NOT NULL,
  type            text NOT NULL,
  text            text NOT NULL,
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
  resolution_note text NOT NULL DEFAULT '',
  resolved_by     bigint,
  resolved_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
-- One open report per person per target: a second one adds to the first.
CREATE UNIQUE INDEX reports_open_per_reporter ON feedback.reports (kind, target_id, reporter_id) WHERE status = 'open';
CREATE INDEX reports_queue_idx ON feedback.reports (status, created_at DESC, id DESC);
CREATE INDEX reports_target_idx ON feedback.reports (kind, target_id) WHERE status = 'open';
CREATE INDEX reports_reporter_idx ON feedback.reports (reporter_id, created_at DESC);

-- +goose Down
DROP TABLE feedback.reports;
