-- +goose Up
-- How hard a question is (the classify_question_difficulty job, or an
-- editor); null until rated.
ALTER TABLE bank.questions ADD COLUMN difficulty text
  CHECK (difficulty IN ('easy', 'medium', 'hard'));

-- +goose Down
ALTER TABLE bank.questions DROP COLUMN difficulty;
