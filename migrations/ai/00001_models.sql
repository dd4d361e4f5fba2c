-- +goose Up
-- Which model performs which task. A speech (tts) model has one row per
-- voice it accepts; voice is '' for every other task. api_key is sealed
-- with ai.key_encryption_key (AES-256-GCM); NULL means the proxy's own key.
CREATE TABLE ai.models (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL DEFAULT '',
  model_id    text NOT NULL,
  task        text NOT NULL CHECK (task IN ('teach', 'extraction', 'article', 'flashcard', 'keyword', 'tool', 'tts', 'stt')),
  voice       text NOT NULL DEFAULT '',
  is_active   boolean NOT NULL DEFAULT true,
  is_default  boolean NOT NULL DEFAULT false,
  api_key     bytea,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (model_id, task, voice)
);
-- At most one default per task.
CREATE UNIQUE INDEX models_one_default ON ai.models (task) WHERE is_default;

-- Every model call a person made, for quotas and the admin's usage view.
CREATE TABLE ai.usage (
  id                bigserial PRIMARY KEY,
  user_id           bigint NOT NULL,
  task              text NOT NULL,
  model_id          text NOT NULL,
  prompt_tokens     bigint NOT NULL DEFAULT 0,
  completion_tokens bigint NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_user_day_idx ON ai.usage (user_id, task, created_at);
CREATE INDEX usage_day_idx ON ai.usage (created_at);

-- +goose Down
DROP TABLE ai.usage;
DROP TABLE ai.models;
