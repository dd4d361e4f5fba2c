-- +goose Up
-- Study plans: ordered blocks of fixed question lists (written once when
-- the block is built), optional reading per block, and each learner's
-- progress. Question, quiz, attempt and article ids belong to other
-- modules (no foreign keys across schemas).
CREATE TABLE plans.plans (
  id           bigserial PRIMARY KEY,
  title        text NOT NULL,
  description  text NOT NULL DEFAULT '',
  kind         text NOT NULL CHECK (kind IN ('set', 'mixed')),
  is_published smallint NOT NULL DEFAULT 0 CHECK (is_published IN (0, 1)),
  retired_at   timestamptz,
  exam_date    date,
  created_by   bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE plans.blocks (
  id           bigserial PRIMARY KEY,
  plan_id      bigint NOT NULL REFERENCES plans.plans (id) ON DELETE CASCADE,
  position     int NOT NULL,
  title        text NOT NULL,
  question_ids jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (plan_id, position)
);

-- A block's question list is written once, at build.
-- +goose StatementBegin
CREATE FUNCTION plans.question_ids_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.question_ids IS DISTINCT FROM OLD.question_ids THEN
    RAISE EXCEPTION 'a block''s question_ids are fixed at build';
  END IF;
  RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER blocks_question_ids_fixed BEFORE UPDATE ON plans.blocks
  FOR EACH ROW EXECUTE FUNCTION plans.question_ids_fixed();

-- Reading attached to a block (mixed plans): an article and optionally one
-- of its sections.
CREATE TABLE plans.reading_links (
  id         bigserial PRIMARY KEY,
  block_id   bigint NOT NULL REFERENCES plans.blocks (id) ON DELETE CASCADE,
  position   int NOT NULL,
  article_id bigint NOT NULL,
  section_id text,
  UNIQUE (block_id, position)
);

CREATE TABLE plans.enrolments (
  plan_id    bigint NOT NULL REFERENCES plans.plans (id) ON DELETE CASCADE,
  user_id    bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (plan_id, user_id)
);
CREATE INDEX enrolments_user_idx ON plans.enrolments (user_id);

-- The learner's saved test of a block, one per mode; quiz_id names the
-- bank quiz the attempts are sat on.
CREATE TABLE plans.saved_tests (
  block_id   bigint NOT NULL REFERENCES plans.blocks (id) ON DELETE CASCADE,
  user_id    bigint NOT NULL,
  mode       text NOT NULL CHECK (mode IN ('learning', 'timed')),
  quiz_id    bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (block_id, user_id, mode)
);
CREATE INDEX saved_tests_quiz_idx ON plans.saved_tests (quiz_id, user_id);

-- One row per block per learner: the quiz last started as, and when a sitting
-- of it completed.
CREATE TABLE plans.block_progress (
  block_id     bigint NOT NULL REFERENCES plans.blocks (id) ON DELETE CASCADE,
  user_id      bigint NOT NULL,
  quiz_id      bigint NOT NULL,
  mode         text NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  attempt_id   bigint,
  PRIMARY KEY (block_id, user_id)
);

CREATE TABLE plans.reading_progress (
  link_id bigint NOT NULL REFERENCES plans.reading_links (id) ON DELETE CASCADE,
  user_id bigint NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (link_id, user_id)
);

-- +goose Down
DROP TABLE plans.reading_progress;
DROP TABLE plans.block_progress;
DROP TABLE plans.saved_tests;
DROP TABLE plans.enrolments;
DROP TABLE plans.reading_links;
DROP TABLE plans.blocks;
DROP FUNCTION plans.question_ids_fixed CASCADE;
DROP TABLE plans.plans;
