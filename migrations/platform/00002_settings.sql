-- +goose Up
-- Site settings (GET/PUT /admin/settings): one JSON value per key. Keys are
-- declared in code by the modules that use them; a key never written reads
-- as its default. They lived in search.settings until the platform took them
-- over: copy what an existing deployment stored (search's next migration
-- drops its table).
CREATE TABLE platform.settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_by bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- +goose StatementBegin
DO $$
BEGIN
  IF to_regclass('search.settings') IS NOT NULL THEN
    INSERT INTO platform.settings (key, value, updated_by, updated_at)
    SELECT key, value, updated_by, updated_at FROM search.settings
    ON CONFLICT (key) DO NOTHING;
  END IF;
END $$;
-- +goose StatementEnd

-- +goose Down
DROP TABLE platform.settings;
