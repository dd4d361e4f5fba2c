-- +goose Up
-- Articles of the library. sections live in their own rows (each has a
-- stable key the author sees and a bigint id the search index uses); a
-- revision keeps the whole article as it was before a change. category_id
-- names a bank question category (no foreign key across schemas).
CREATE TABLE library.articles (
  id              bigserial PRIMARY KEY,
  title           text NOT NULL,
  slug            text NOT NULL,
  summary         text NOT NULL DEFAULT '',
  references_json jsonb NOT NULL DEFAULT '[]',
  category_id     bigint,
  status          text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'review', 'published', 'archived')),
  -- Once published, a delete bins the article; never published, it is removed.
  ever_published  boolean NOT NULL DEFAULT false,
  -- Grows with every change; the search index keeps the newest per section.
  version         bigint NOT NULL DEFAULT 1,
  created_by      bigint NOT NULL,
  updated_by      bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE UNIQUE INDEX articles_slug_key ON library.articles (slug);
CREATE INDEX articles_published_idx ON library.articles (updated_at DESC, id DESC) WHERE status = 'published' AND deleted_at IS NULL;
CREATE INDEX articles_category_idx ON library.articles (category_id) WHERE deleted_at IS NULL;
CREATE INDEX articles_trash_idx ON library.articles (deleted_at DESC) WHERE deleted_at IS NOT NULL;

CREATE TABLE library.sections (
  id         bigserial PRIMARY KEY,
  article_id bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  key        text NOT NULL,
  position   int NOT NULL,
  heading    text NOT NULL,
  markdown   text NOT NULL,
  html       text NOT NULL,
  UNIQUE (article_id, key)
);

-- Slugs an article had before; they keep resolving to it. A slug is never
-- both current somewhere and historical elsewhere (the service checks).
CREATE TABLE library.slug_history (
  slug       text PRIMARY KEY,
  article_id bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  retired_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX slug_history_article_idx ON library.slug_history (article_id);

CREATE TABLE library.revisions (
  id              bigserial PRIMARY KEY,
  article_id      bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  title           text NOT NULL,
  summary         text NOT NULL,
  content         text NOT NULL,
  sections        jsonb NOT NULL,
  references_json jsonb NOT NULL,
  category_id     bigint,
  status          text NOT NULL,
  note            text NOT NULL DEFAULT '' CHECK (char_length(note) <= 200),
  created_by      bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revisions_article_idx ON library.revisions (article_id, id DESC);

-- What each person opened last (GET /articles/recent).
CREATE TABLE library.recent (
  user_id    bigint NOT NULL,
  article_id bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  opened_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, article_id)
);
CREATE INDEX recent_user_idx ON library.recent (user_id, opened_at DESC);

-- +goose Down
DROP TABLE library.recent;
DROP TABLE library.revisions;
DROP TABLE library.slug_history;
DROP TABLE library.sections;
DROP TABLE library.articles;
