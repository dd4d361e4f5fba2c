-- +goose Up
-- Running tallies of each learner's completed attempts, so the dashboard
-- and the charts read a few rows by key instead of aggregating every
-- attempt and answer the learner ever had (1,000 attempts of 50 questions
-- are 50,000 answers per read). They change in the transaction that
-- completes an attempt (submit, auto-submit) or deletes one, by adding or
-- subtracting that attempt's rows, and go with the account. (No CHECK on
-- the counts: an upsert's proposed row is checked before its conflict, and
-- a subtraction proposes a negative one.)
--
-- question_tallies: per question, how often the learner sat it and got it
-- right (a blank counts as sat and wrong). The category a question counts
-- under is where the bank files it now, read at the dashboard's read.
CREATE TABLE attempts.question_tallies (
  user_id     bigint NOT NULL,
  question_id bigint NOT NULL,
  seen        int NOT NULL,
  correct     int NOT NULL,
  PRIMARY KEY (user_id, question_id)
);

-- day_tallies: per UTC day of completion, the attempts completed, the
-- questions they held and got right, and the sum of their percentages
-- (the dashboard's average); a day with nothing left has no row.
CREATE TABLE attempts.day_tallies (
  user_id        bigint NOT NULL,
  day            date NOT NULL,
  completed      int NOT NULL,
  answered       int NOT NULL,
  correct        int NOT NULL,
  percentage_sum numeric NOT NULL, -- exact, so what is added and taken away cancels
  PRIMARY KEY (user_id, day)
);

-- The dashboard's best percentage is the top of this index, and its count
-- of attempts in progress the learner's few entries of the next.
CREATE INDEX attempts_user_best_idx ON attempts.attempts (user_id, percentage DESC)
  WHERE completed_at IS NOT NULL;
CREATE INDEX attempts_user_open_idx ON attempts.attempts (user_id) WHERE completed_at IS NULL;

INSERT INTO attempts.question_tallies (user_id, question_id, seen, correct)
SELECT t.user_id, a.question_id, count(*), count(*) FILTER (WHERE a.is_correct)
FROM attempts.attempts t JOIN attempts.answers a ON a.attempt_id = t.id
WHERE t.completed_at IS NOT NULL
GROUP BY t.user_id, a.question_id;

INSERT INTO attempts.day_tallies (user_id, day, completed, answered, correct, percentage_sum)
SELECT user_id, (completed_at AT TIME ZONE 'UTC')::date, count(*), sum(total_questions), sum(score), sum(percentage::numeric)
FROM attempts.attempts
WHERE completed_at IS NOT NULL
GROUP BY 1, 2;

-- +goose Down
DROP INDEX attempts.attempts_user_open_idx;
DROP INDEX attempts.attempts_user_best_idx;
DROP TABLE attempts.day_tallies;
DROP TABLE attempts.question_tallies;
