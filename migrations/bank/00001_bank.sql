-- +goose Up
-- Accent-insensitive search: unaccent is STABLE (its dictionary could change),
-- so an index needs an IMMUTABLE wrapper naming the dictionary explicitly.
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
-- btree_gin lets one GIN index hold the search document and the filing, so
-- "these words in these categories" is answered inside the index.
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

-- +goose StatementBegin
CREATE FUNCTION bank.fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT pg_catalog.lower(public.unaccent('public.unaccent'::regdictionary, t))
$$;
-- +goose StatementEnd

-- The weighted document of a question: stem A, options B, explanation C.
-- +goose StatementBegin
CREATE FUNCTION bank.question_document(stem text, options jsonb, explanation text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::regconfig, bank.fold(coalesce(stem, ''))), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::regconfig, bank.fold(coalesce(
           (SELECT pg_catalog.string_agg(o, ' ') FROM pg_catalog.jsonb_array_elements_text(options) AS o), ''))), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::regconfig, bank.fold(coalesce(explanation, ''))), 'C')
$$;
-- +goose StatementEnd

-- Tags: subject, disease (assigned by offline tooling), system (organ
-- systems; carried by categories and derived by questions through category
-- ancestry), keyword (retired, never listed).
CREATE TABLE bank.tags (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  type       text NOT NULL CHECK (type IN ('subject', 'disease', 'system', 'keyword')),
  name       text NOT NULL CHECK (btrim(name) <> ''),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_type_name_key ON bank.tags (type, bank.fold(name));

-- The organ systems a category can carry (reference data).
INSERT INTO bank.tags (type, name) VALUES
  ('system', 'Cardiovascular'), ('system', 'Respiratory'), ('system', 'Renal and urinary'),
  ('system', 'Gastrointestinal'), ('system', 'Endocrine'), ('system', 'Nervous system'),
  ('system', 'Haematology and oncology'), ('system', 'Infectious disease'),
  ('system', 'Musculoskeletal'), ('system', 'Reproductive'), ('system', 'Skin'),
  ('system', 'Psychiatry'), ('system', 'Multisystem');

-- The question-category tree.
CREATE TABLE bank.question_categories (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  description text,
  parent_id   bigint REFERENCES bank.question_categories (id),
  system_id   bigint REFERENCES bank.tags (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (parent_id IS DISTINCT FROM id)
);
-- Sibling names are unique (case- and accent-insensitive).
CREATE UNIQUE INDEX question_categories_sibling_name_key
  ON bank.question_categories (coalesce(parent_id, 0), bank.fold(name));
CREATE INDEX question_categories_parent_idx ON bank.question_categories (parent_id);

-- Questions: ids come from the identity sequence and are never reissued
-- (GENERATED ALWAYS refuses explicit ids; a purge never rewinds it).
CREATE TABLE bank.questions (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  question_type          text NOT NULL CHECK (question_type IN ('mcq', 'fill_in')),
  question_text          text NOT NULL,
  options                jsonb NOT NULL DEFAULT '[]',
  correct_answer         text NOT NULL DEFAULT '',
  explanation            text NOT NULL DEFAULT '',
  option_explanations    jsonb NOT NULL DEFAULT '[]',
  key_points             jsonb NOT NULL DEFAULT '[]',
  attending_tip          text NOT NULL DEFAULT '',
  explanation_image_path text NOT NULL DEFAULT '',
  image_path             text NOT NULL DEFAULT '',
  figures                jsonb NOT NULL DEFAULT '[]',
  question_category_id   bigint REFERENCES bank.question_categories (id),
  created_by             bigint,
  version                int NOT NULL DEFAULT 1,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  deleted_at             timestamptz,
  search_document        tsvector GENERATED ALWAYS AS (bank.question_document(question_text, options, explanation)) STORED,
  CHECK (jsonb_typeof(options) = 'array' AND jsonb_typeof(option_explanations) = 'array'
     AND jsonb_typeof(key_points) = 'array' AND jsonb_typeof(figures) = 'array')
);
-- Live rows only: every reader but the trash excludes trashed questions.
CREATE INDEX questions_search_idx ON bank.questions USING gin (search_document, question_category_id)
  WHERE deleted_at IS NULL;
CREATE INDEX questions_category_idx ON bank.questions (question_category_id, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX questions_live_idx ON bank.questions (id DESC) WHERE deleted_at IS NULL;
CREATE INDEX questions_trash_idx ON bank.questions (deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL;

-- Tags carried directly (subject, disease).
CREATE TABLE bank.question_tags (
  question_id bigint NOT NULL REFERENCES bank.questions (id) ON DELETE CASCADE,
  tag_id      bigint NOT NULL REFERENCES bank.tags (id) ON DELETE CASCADE,
  PRIMARY KEY (question_id, tag_id)
);
CREATE INDEX question_tags_tag_idx ON bank.question_tags (tag_id, question_id);

-- A snapshot of the versioned fields, written before each change.
CREATE TABLE bank.question_versions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  question_id bigint NOT NULL REFERENCES bank.questions (id) ON DELETE CASCADE,
  snapshot    jsonb NOT NULL,
  edited_by   bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX question_versions_question_idx ON bank.question_versions (question_id, id DESC);

CREATE TABLE bank.quiz_categories (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       text NOT NULL CHECK (btrim(name) <> ''),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX quiz_categories_name_key ON bank.quiz_categories (bank.fold(name));

CREATE TABLE bank.quizzes (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  section_id         bigint,
  user_id            bigint NOT NULL,
  title              text NOT NULL CHECK (btrim(title) <> ''),
  mode               text NOT NULL DEFAULT 'timed' CHECK (mode IN ('timed', 'learning')),
  time_limit_minutes int CHECK (time_limit_minutes > 0),
  is_published       boolean NOT NULL DEFAULT false,
  category_id        bigint REFERENCES bank.quiz_categories (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz
);
CREATE INDEX quizzes_live_idx ON bank.quizzes (id DESC) WHERE deleted_at IS NULL;
CREATE INDEX quizzes_published_idx ON bank.quizzes (id DESC) WHERE deleted_at IS NULL AND is_published;
CREATE INDEX quizzes_trash_idx ON bank.quizzes (deleted_at DESC) WHERE deleted_at IS NOT NULL;
CREATE INDEX quizzes_category_idx ON bank.quizzes (category_id);
CREATE INDEX quizzes_title_trgm_idx ON bank.quizzes USING gin (bank.fold(title) public.gin_trgm_ops);

-- A quiz references bank questions in order; a question may be in many quizzes.
CREATE TABLE bank.quiz_questions (
  quiz_id     bigint NOT NULL REFERENCES bank.quizzes (id) ON DELETE CASCADE,
  question_id bigint NOT NULL REFERENCES bank.questions (id) ON DELETE CASCADE,
  position    int NOT NULL,
  PRIMARY KEY (quiz_id, question_id)
);
CREATE INDEX quiz_questions_question_idx ON bank.quiz_questions (question_id, quiz_id);
CREATE INDEX quiz_questions_position_idx ON bank.quiz_questions (quiz_id, position);

CREATE TABLE bank.favorites (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL,
  question_id bigint NOT NULL REFERENCES bank.questions (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, question_id)
);
CREATE INDEX favorites_question_idx ON bank.favorites (question_id);

SELECT events.ensure_topic('bank.question_changed.v1');

-- +goose Down
DROP TABLE bank.favorites;
DROP TABLE bank.quiz_questions;
DROP TABLE bank.quizzes;
DROP TABLE bank.quiz_categories;
DROP TABLE bank.question_versions;
DROP TABLE bank.question_tags;
DROP TABLE bank.questions;
DROP TABLE bank.question_categories;
DROP TABLE bank.tags;
DROP FUNCTION bank.question_document(text, jsonb, text);
DROP FUNCTION bank.fold(text);
