-- +goose Up
-- What a quiz's read shows of its questions, kept by triggers so that no
-- write path can forget it: version changes whenever the live question
-- list can read differently (which questions, their order, any field the
-- list shows, their category's name), and questions_count is the number
-- of live questions. The quiz read checks this one row instead of joining
-- the questions (docs/decisions/bank.md, "Quiz content version").
-- A table of its own, not columns of bank.quizzes: the triggers lock these
-- rows after a question row, while the quiz routes lock the quiz row
-- before a question row; on one row the two orders could deadlock.
CREATE TABLE bank.quiz_contents (
  quiz_id         bigint PRIMARY KEY REFERENCES bank.quizzes (id) ON DELETE CASCADE,
  version         bigint NOT NULL DEFAULT 0,
  questions_count int NOT NULL DEFAULT 0
);

INSERT INTO bank.quiz_contents (quiz_id, questions_count)
SELECT z.id, (SELECT count(*) FROM bank.quiz_questions qq
  JOIN bank.questions q ON q.id = qq.question_id AND q.deleted_at IS NULL WHERE qq.quiz_id = z.id)
FROM bank.quizzes z;

-- bump_quiz_contents moves the given quizzes to a new version and recounts
-- them. The rows are locked in id order first (two bulk writes cannot
-- deadlock on them), and the recount is a later statement, so under READ
-- COMMITTED it sees every write committed by whoever held a lock before:
-- the last writer's count is exact.
-- +goose StatementBegin
CREATE FUNCTION bank.bump_quiz_contents(ids bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM bank.quiz_contents WHERE quiz_id = ANY (ids) ORDER BY quiz_id FOR UPDATE;
  UPDATE bank.quiz_contents c SET version = c.version + 1,
    questions_count = (SELECT count(*) FROM bank.quiz_questions qq
      JOIN bank.questions q ON q.id = qq.question_id AND q.deleted_at IS NULL WHERE qq.quiz_id = c.quiz_id)
  WHERE c.quiz_id = ANY (ids);
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION bank.quizzes_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bank.quiz_contents (quiz_id) SELECT id FROM new_rows;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER quizzes_contents AFTER INSERT ON bank.quizzes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank.quizzes_inserted();

-- A link added, removed or moved (a question purged removes its links by
-- ON DELETE CASCADE, which fires the delete trigger).
-- +goose StatementBegin
CREATE FUNCTION bank.quiz_questions_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bank.bump_quiz_contents(ARRAY(SELECT DISTINCT quiz_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bank.bump_quiz_contents(ARRAY(SELECT DISTINCT quiz_id FROM old_rows));
  ELSE
    PERFORM bank.bump_quiz_contents(ARRAY(SELECT quiz_id FROM new_rows UNION SELECT quiz_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER quiz_questions_inserted AFTER INSERT ON bank.quiz_questions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank.quiz_questions_changed();
CREATE TRIGGER quiz_questions_deleted AFTER DELETE ON bank.quiz_questions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bank.quiz_questions_changed();
CREATE TRIGGER quiz_questions_updated AFTER UPDATE ON bank.quiz_questions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank.quiz_questions_changed();

-- A question changed anything a quiz read shows of it (or was trashed or
-- restored). Whole rows are compared, less the columns no read shows, so
-- a column added later counts until someone says otherwise: a needless
-- bump costs one re-encode, a missed one serves a stale question. version
-- alone would miss a difficulty rating, which is not an edit.
-- +goose StatementBegin
CREATE FUNCTION bank.questions_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bank.bump_quiz_contents(ARRAY(
    SELECT DISTINCT qq.quiz_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN bank.quiz_questions qq ON qq.question_id = n.id
    WHERE to_jsonb(o) - '{created_by,search_document}'::text[]
      IS DISTINCT FROM to_jsonb(n) - '{created_by,search_document}'::text[]));
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER questions_contents AFTER UPDATE ON bank.questions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank.questions_changed();

-- A category renamed: the quizzes of its live questions show the name. (A
-- category cannot be deleted while a question is filed in it: the
-- questions' foreign key has no action, and the app moves them first,
-- which fires the questions trigger.)
-- +goose StatementBegin
CREATE FUNCTION bank.question_categories_renamed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bank.bump_quiz_contents(ARRAY(
    SELECT DISTINCT qq.quiz_id FROM old_rows o JOIN new_rows n ON n.id = o.id AND n.name IS DISTINCT FROM o.name
      JOIN bank.questions q ON q.question_category_id = n.id AND q.deleted_at IS NULL
      JOIN bank.quiz_questions qq ON qq.question_id = q.id));
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER question_categories_contents AFTER UPDATE ON bank.question_categories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION bank.question_categories_renamed();

-- +goose Down
DROP TRIGGER question_categories_contents ON bank.question_categories;
DROP TRIGGER questions_contents ON bank.questions;
DROP TRIGGER quiz_questions_updated ON bank.quiz_questions;
DROP TRIGGER quiz_questions_deleted ON bank.quiz_questions;
DROP TRIGGER quiz_questions_inserted ON bank.quiz_questions;
DROP TRIGGER quizzes_contents ON bank.quizzes;
DROP FUNCTION bank.question_categories_renamed();
DROP FUNCTION bank.questions_changed();
DROP FUNCTION bank.quiz_questions_changed();
DROP FUNCTION bank.quizzes_inserted();
DROP FUNCTION bank.bump_quiz_contents(bigint[]);
DROP TABLE bank.quiz_contents;
