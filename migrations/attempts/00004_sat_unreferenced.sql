-- +goose Up
-- An answer names the snapshot it sat without a foreign key, and nothing
-- indexes answers by snapshot. The check took a key-share lock on the
-- snapshot row for every answer inserted, and an exam opening has every
-- learner's start lock the same fifty rows at once: each row's lockers
-- become a multixact, which Postgres builds and rewrites for every new
-- locker; the index served only that check's reverse side. Snapshot rows
-- are never updated or deleted (docs/decisions/attempts.md, "Questions as
-- sat"), so neither protected anything: reads join answers to snapshots by
-- the snapshot's primary key. Inserting a 50-question attempt took
-- 0.45-0.65 ms of Postgres's time without them, 0.7-1.1 ms with.
ALTER TABLE attempts.answers DROP CONSTRAINT answers_sat_question_id_fkey;
DROP INDEX attempts.answers_sat_question_idx;

-- +goose Down
CREATE INDEX answers_sat_question_idx ON attempts.answers (sat_question_id);
ALTER TABLE attempts.answers ADD CONSTRAINT answers_sat_question_id_fkey
  FOREIGN KEY (sat_question_id) REFERENCES attempts.sat_questions (id);
