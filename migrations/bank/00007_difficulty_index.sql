-- +goose Up
-- The bank listing's difficulty filter: its count is answered from this
-- index (rated live questions only) instead of reading every live row.
CREATE INDEX questions_difficulty_idx ON bank.questions (difficulty, id DESC)
  WHERE deleted_at IS NULL AND difficulty IS NOT NULL;

-- +goose Down
DROP INDEX bank.questions_difficulty_idx;
