-- +goose Up
-- Every process that serves quiz reads keeps the rows they open with
-- (the quiz, its category's name, its content version and count, whose
-- saved test it is) in memory, and forgets one when it hears it changed
-- (docs/decisions/bank.md, "The quiz row in memory"). These triggers say so
-- on channel bank_quiz_rows at commit, whatever wrote: the payload is the
-- quiz's id, or * for "forget every quiz" (a quiz category's name is on
-- many). Postgres sends one notification per distinct payload per
-- transaction, so a bulk write costs one per quiz it touched.
-- +goose StatementBegin
CREATE FUNCTION bank.quiz_row_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0] names the column that holds the quiz's id; none: every quiz.
  IF TG_NARGS = 0 THEN
    PERFORM pg_notify('bank_quiz_rows', '*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('bank_quiz_rows', to_jsonb(OLD) ->> TG_ARGV[0]);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('bank_quiz_rows', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;
-- +goose StatementEnd

-- A new quiz or content row names an id no process has read (reads of a
-- missing quiz are not kept): inserts need no word, except a saved test's,
-- which changes whose quiz it is.
CREATE TRIGGER quizzes_row_changed AFTER UPDATE OR DELETE ON bank.quizzes
  FOR EACH ROW EXECUTE FUNCTION bank.quiz_row_changed('id');
CREATE TRIGGER quiz_contents_row_changed AFTER UPDATE OR DELETE ON bank.quiz_contents
  FOR EACH ROW EXECUTE FUNCTION bank.quiz_row_changed('quiz_id');
CREATE TRIGGER saved_tests_row_changed AFTER INSERT OR UPDATE OR DELETE ON bank.saved_tests
  FOR EACH ROW EXECUTE FUNCTION bank.quiz_row_changed('quiz_id');
CREATE TRIGGER quiz_categories_row_changed AFTER UPDATE OR DELETE ON bank.quiz_categories
  FOR EACH STATEMENT EXECUTE FUNCTION bank.quiz_row_changed();

-- +goose Down
DROP TRIGGER quiz_categories_row_changed ON bank.quiz_categories;
DROP TRIGGER saved_tests_row_changed ON bank.saved_tests;
DROP TRIGGER quiz_contents_row_changed ON bank.quiz_contents;
DROP TRIGGER quizzes_row_changed ON bank.quizzes;
DROP FUNCTION bank.quiz_row_changed();
