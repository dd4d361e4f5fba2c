-- +goose Up
-- Every bank timestamp is set by the database (DEFAULT now() on insert,
-- now() in the statement on update, trash and restore); the service never
-- sends one. Rows an older build stored with a zero time (the year 1) are
-- repaired, and a CHECK keeps a zero time from ever being stored again: a
-- missed default fails loudly instead of showing 0001-01-01 to clients.
UPDATE bank.questions SET created_at = CASE WHEN updated_at >= '2000-01-01' THEN updated_at ELSE now() END
  WHERE created_at < '2000-01-01';
UPDATE bank.questions SET updated_at = created_at WHERE updated_at < '2000-01-01';
UPDATE bank.questions SET deleted_at = updated_at WHERE deleted_at < '2000-01-01';
UPDATE bank.quizzes SET created_at = CASE WHEN updated_at >= '2000-01-01' THEN updated_at ELSE now() END
  WHERE created_at < '2000-01-01';
UPDATE bank.quizzes SET updated_at = created_at WHERE updated_at < '2000-01-01';
UPDATE bank.quizzes SET deleted_at = updated_at WHERE deleted_at < '2000-01-01';
UPDATE bank.question_categories SET created_at = CASE WHEN updated_at >= '2000-01-01' THEN updated_at ELSE now() END
  WHERE created_at < '2000-01-01';
UPDATE bank.question_categories SET updated_at = created_at WHERE updated_at < '2000-01-01';
UPDATE bank.question_versions SET created_at = now() WHERE created_at < '2000-01-01';
UPDATE bank.quiz_categories SET created_at = now() WHERE created_at < '2000-01-01';
UPDATE bank.tags SET created_at = now() WHERE created_at < '2000-01-01';
UPDATE bank.favorites SET created_at = now() WHERE created_at < '2000-01-01';

ALTER TABLE bank.questions
  ADD CONSTRAINT questions_times_set CHECK (created_at >= '2000-01-01' AND updated_at >= '2000-01-01'
    AND (deleted_at IS NULL OR deleted_at >= '2000-01-01'));
ALTER TABLE bank.quizzes
  ADD CONSTRAINT quizzes_times_set CHECK (created_at >= '2000-01-01' AND updated_at >= '2000-01-01'
    AND (deleted_at IS NULL OR deleted_at >= '2000-01-01'));
ALTER TABLE bank.question_categories
  ADD CONSTRAINT question_categories_times_set CHECK (created_at >= '2000-01-01' AND updated_at >= '2000-01-01');
ALTER TABLE bank.question_versions ADD CONSTRAINT question_versions_times_set CHECK (created_at >= '2000-01-01');
ALTER TABLE bank.quiz_categories ADD CONSTRAINT quiz_categories_times_set CHECK (created_at >= '2000-01-01');
ALTER TABLE bank.tags ADD CONSTRAINT tags_times_set CHECK (created_at >= '2000-01-01');
ALTER TABLE bank.favorites ADD CONSTRAINT favorites_times_set CHECK (created_at >= '2000-01-01');

-- +goose Down
ALTER TABLE bank.questions DROP CONSTRAINT questions_times_set;
ALTER TABLE bank.quizzes DROP CONSTRAINT quizzes_times_set;
ALTER TABLE bank.question_categories DROP CONSTRAINT question_categories_times_set;
ALTER TABLE bank.question_versions DROP CONSTRAINT question_versions_times_set;
ALTER TABLE bank.quiz_categories DROP CONSTRAINT quiz_categories_times_set;
ALTER TABLE bank.tags DROP CONSTRAINT tags_times_set;
ALTER TABLE bank.favorites DROP CONSTRAINT favorites_times_set;
