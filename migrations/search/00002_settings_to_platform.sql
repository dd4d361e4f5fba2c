-- +goose Up
-- Site settings moved to platform.settings (its migration copied the rows).
DROP TABLE search.settings;

-- +goose Down
CREATE TABLE search.settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_by bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO search.settings (key, value, updated_by, updated_at)
SELECT key, value, updated_by, updated_at FROM platform.settings;
