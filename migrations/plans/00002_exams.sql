-- +goose Up
-- Exams: one timed paper drawn to a blueprint. question_ids and
-- question_domains are parallel (the domain index each question was drawn
-- for); domains hold each domain's name and the articles and decks a weak
-- learner is pointed to.
CREATE TABLE plans.exams (
  id                 bigserial PRIMARY KEY,
  title              text NOT NULL,
  time_limit_minutes int NOT NULL CHECK (time_limit_minutes > 0),
  question_ids       jsonb NOT NULL,
  question_domains   jsonb NOT NULL,
  domains            jsonb NOT NULL,
  is_published       smallint NOT NULL DEFAULT 0 CHECK (is_published IN (0, 1)),
  created_by         bigint NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now()
);

-- Each learner's saved test of the paper.
CREATE TABLE plans.exam_sittings (
  exam_id    bigint NOT NULL REFERENCES plans.exams (id) ON DELETE CASCADE,
  user_id    bigint NOT NULL,
  quiz_id    bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (exam_id, user_id)
);
CREATE INDEX exam_sittings_quiz_idx ON plans.exam_sittings (quiz_id, user_id);

-- A learner's result: their first completed sitting counts.
CREATE TABLE plans.exam_results (
  exam_id        bigint NOT NULL REFERENCES plans.exams (id) ON DELETE CASCADE,
  user_id        bigint NOT NULL,
  attempt_id     bigint NOT NULL UNIQUE,
  score          int NOT NULL,
  total          int NOT NULL,
  domain_correct jsonb NOT NULL,
  domain_total   jsonb NOT NULL,
  completed_at   timestamptz NOT NULL,
  PRIMARY KEY (exam_id, user_id)
);
CREATE INDEX exam_results_score_idx ON plans.exam_results (exam_id, score);

-- +goose Down
DROP TABLE plans.exam_results;
DROP TABLE plans.exam_sittings;
DROP TABLE plans.exams;
