-- +goose Up
-- Who changed the model configuration, and how (issue 33): one row per
-- model row created, changed or removed, written in the change's own
-- transaction. before and after are the row as admins read it (the api key
-- masked to its last four characters, never the sealed bytes); before is
-- NULL for a creation, after NULL for a removal. model_row is not a foreign
-- key: the history outlives the row.
CREATE TABLE ai.model_changes (
  id         bigserial PRIMARY KEY,
  actor_id   bigint NOT NULL,
  action     text NOT NULL CHECK (action IN ('create', 'update', 'delete')),
  model_row  bigint NOT NULL,
  before     jsonb,
  after      jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_changes_recent_idx ON ai.model_changes (created_at DESC, id DESC);

-- +goose Down
DROP TABLE ai.model_changes;
