-- +goose Up
-- Questions as they were sat: one row per distinct content (keyed by a hash
-- of the question id, version and every field), shared by every attempt that
-- sat that exact content. Later bank edits make new rows and never touch
-- these, so an attempt's history is never rewritten.
CREATE TABLE attempts.sat_questions (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  snapshot_key           text NOT NULL UNIQUE,
  question_id            bigint NOT NULL,
  version                int NOT NULL,
  question_type          text NOT NULL,
  question_text          text NOT NULL,
  options                jsonb NOT NULL DEFAULT '[]',
  correct_answer         text NOT NULL DEFAULT '',
  explanation            text NOT NULL DEFAULT '',
  option_explanations    jsonb NOT NULL DEFAULT '[]',
  key_points             jsonb NOT NULL DEFAULT '[]',
  attending_tip          text NOT NULL DEFAULT '',
  explanation_image_path text NOT NULL DEFAULT '',
  image_path             text NOT NULL DEFAULT '',
  created_at             timestamptz NOT NULL DEFAULT now()
);

-- One sitting of a quiz by a learner. mode is how it is sat: timed (answer
-- side hidden until submission, deadline_at when the quiz has a limit) or
-- learning (study: answer side shown at once). score and percentage are set
-- exactly when completed_at is.
CREATE TABLE attempts.attempts (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id            bigint NOT NULL,
  quiz_id            bigint NOT NULL,
  quiz_title         text NOT NULL,
  mode               text NOT NULL CHECK (mode IN ('timed', 'learning')),
  time_limit_seconds int CHECK (time_limit_seconds > 0),
  total_questions    int NOT NULL CHECK (total_questions > 0),
  score              int,
  percentage         double precision,
  started_at         timestamptz NOT NULL DEFAULT now(),
  deadline_at        timestamptz,
  completed_at       timestamptz,
  auto_submitted     boolean NOT NULL DEFAULT false,
  CHECK ((completed_at IS NULL) = (score IS NULL)),
  CHECK ((completed_at IS NULL) = (percentage IS NULL))
);
-- Resume, history and "has a completed attempt" per (learner, quiz).
CREATE INDEX attempts_user_quiz_idx ON attempts.attempts (user_id, quiz_id, started_at DESC);
-- A learner's attempts newest first.
CREATE INDEX attempts_user_started_idx ON attempts.attempts (user_id, started_at DESC, id DESC);
-- The sweep: incomplete timed attempts by deadline.
CREATE INDEX attempts_open_deadline_idx ON attempts.attempts (deadline_at)
  WHERE completed_at IS NULL AND deadline_at IS NOT NULL;

-- Each question of an attempt in the order sat, with the learner's answer
-- once submitted (is_correct is null until then).
CREATE TABLE attempts.answers (
  attempt_id      bigint NOT NULL REFERENCES attempts.attempts (id) ON DELETE CASCADE,
  position        int NOT NULL CHECK (position >= 0),
  question_id     bigint NOT NULL,
  sat_question_id bigint NOT NULL REFERENCES attempts.sat_questions (id),
  user_answer     text,
  is_correct      boolean,
  PRIMARY KEY (attempt_id, position)
);
CREATE UNIQUE INDEX answers_attempt_question_key ON attempts.answers (attempt_id, question_id);
CREATE INDEX answers_sat_question_idx ON attempts.answers (sat_question_id);

-- Saved progress (autosave): the client's fields for one attempt. GET
-- /attempts/progress?quiz_id reads the learner's most recently saved one for
-- the quiz; keeping a row per attempt means a study session of a quiz never
-- overwrites what a timed attempt of it saved. device is the x-quiz-session
-- of the last save ('' = none given); revision is the client's optional
-- monotonic counter, so a save that lost a race to a newer one from the same
-- device changes nothing.
CREATE TABLE attempts.saved_progress (
  attempt_id  bigint PRIMARY KEY REFERENCES attempts.attempts (id) ON DELETE CASCADE,
  user_id     bigint NOT NULL,
  quiz_id     bigint NOT NULL,
  answers     jsonb NOT NULL DEFAULT '{}',
  current_idx int NOT NULL DEFAULT 0,
  mode        text,
  voice       text,
  time_left   double precision,
  started_at  timestamptz,
  total_time  double precision,
  device      text NOT NULL DEFAULT '',
  revision    bigint,
  saved_at    timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX saved_progress_user_quiz_idx ON attempts.saved_progress (user_id, quiz_id, saved_at DESC);
CREATE INDEX saved_progress_expires_idx ON attempts.saved_progress (expires_at);

-- The reminder schedule: a learner's missed questions, due for review in
-- Leitner boxes. attempt_id is the attempt that last moved the entry
-- (deleting that attempt removes it).
CREATE TABLE attempts.review_schedule (
  user_id        bigint NOT NULL,
  question_id    bigint NOT NULL,
  attempt_id     bigint NOT NULL REFERENCES attempts.attempts (id) ON DELETE CASCADE,
  box            smallint NOT NULL CHECK (box >= 1),
  misses         int NOT NULL CHECK (misses >= 1),
  due_at         timestamptz NOT NULL,
  last_missed_at timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, question_id)
);
CREATE INDEX review_schedule_due_idx ON attempts.review_schedule (user_id, due_at);
CREATE INDEX review_schedule_attempt_idx ON attempts.review_schedule (attempt_id);

-- The learner's own things: folders hold collections; a collection is a
-- named list of question ids; a note is a private note on one question.
CREATE TABLE attempts.folders (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint NOT NULL,
  name       text NOT NULL CHECK (btrim(name) <> ''),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX folders_user_name_key ON attempts.folders (user_id, lower(name));

CREATE TABLE attempts.collections (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL,
  folder_id   bigint REFERENCES attempts.folders (id) ON DELETE SET NULL,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  description text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collections_user_idx ON attempts.collections (user_id, updated_at DESC, id DESC);
CREATE INDEX collections_folder_idx ON attempts.collections (folder_id);

CREATE TABLE attempts.collection_questions (
  collection_id bigint NOT NULL REFERENCES attempts.collections (id) ON DELETE CASCADE,
  question_id   bigint NOT NULL,
  added_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection_id, question_id)
);

CREATE TABLE attempts.notes (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL,
  question_id bigint NOT NULL,
  body        text NOT NULL CHECK (btrim(body) <> ''),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, question_id)
);
CREATE INDEX notes_user_updated_idx ON attempts.notes (user_id, updated_at DESC, id DESC);

-- Published when an attempt is completed (submitted or auto-submitted).
SELECT events.ensure_topic('attempts.attempt_completed.v1');
-- Consumed: accounts deleted by an administrator.
SELECT events.ensure_topic('identity.user_deleted.v1');

-- +goose Down
DROP TABLE attempts.notes;
DROP TABLE attempts.collection_questions;
DROP TABLE attempts.collections;
DROP TABLE attempts.folders;
DROP TABLE attempts.review_schedule;
DROP TABLE attempts.saved_progress;
DROP TABLE attempts.answers;
DROP TABLE attempts.attempts;
DROP TABLE attempts.sat_questions;
