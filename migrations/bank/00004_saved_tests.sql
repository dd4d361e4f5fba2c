-- +goose Up
-- A saved test is a quiz the bank built for one learner (a study-plan block
-- or an exam paper they started): never published, sat only by its owner.
-- The marker keeps it apart from the quizzes moderators make.
CREATE TABLE bank.saved_tests (
  quiz_id    bigint PRIMARY KEY REFERENCES bank.quizzes (id) ON DELETE CASCADE,
  user_id    bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saved_tests_user_idx ON bank.saved_tests (user_id);

-- +goose Down
DROP TABLE bank.saved_tests;
