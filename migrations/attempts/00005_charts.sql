-- +goose Up
-- The dashboard's time per question against the cohort reads every other
-- learner's completed timed attempts of the quizzes the learner sat: by
-- quiz, with what the time per question needs, so it is an index-only scan.
CREATE INDEX attempts_quiz_timed_done_idx ON attempts.attempts (quiz_id)
  INCLUDE (user_id, started_at, completed_at, deadline_at, total_questions)
  WHERE mode = 'timed' AND completed_at IS NOT NULL;

-- +goose Down
DROP INDEX attempts.attempts_quiz_timed_done_idx;
