-- +goose Up
-- The search index: one row per searchable item of another module, fed by
-- that module's events. Rows are never joined to their source tables (no
-- cross-schema joins): callers rank here and load their own rows by id.

-- search subscribes to the bank's topic; ensure_topic is idempotent, so it
-- does not matter whether the bank's migration created it first.
SELECT events.ensure_topic('bank.question_changed.v1');

CREATE TABLE search.documents (
  kind            text NOT NULL CHECK (kind IN ('question', 'article', 'deck', 'media')),
  id              bigint NOT NULL,
  -- Source version last applied: older or repeated events are ignored.
  version         bigint NOT NULL DEFAULT 0,
  -- Searchable now (a trashed question is kept, with its vector, for a restore).
  live            boolean NOT NULL DEFAULT true,
  -- Removed for good at the source: a tombstone no later event revives.
  purged          boolean NOT NULL DEFAULT false,
  title           text NOT NULL DEFAULT '', -- a question's stem, an article's title
  body            text NOT NULL DEFAULT '', -- a question's options, an item's text
  extra           text NOT NULL DEFAULT '', -- keyword-only text (a question's explanation)
  tsv             tsvector GENERATED ALWAYS AS (
                    setweight(to_tsvector('english', title), 'A') ||
                    setweight(to_tsvector('english', body), 'B') ||
                    setweight(to_tsvector('english', extra), 'D')) STORED,
  -- Hash of the text that is embedded (the title: a question's stem).
  content_hash    text NOT NULL DEFAULT '',
  -- The dimension follows search.embedding_dims: the module resizes the
  -- column at start while no vector is stored (see docs/decisions-search.md).
  embedding       vector(384),
  embedding_model text,
  -- content_hash the stored embedding was computed from; differs while an
  -- embedding is missing or stale (the retry job's work list).
  embedded_hash   text,
  embedded_at     timestamptz,
  embed_error     text,
  embed_failures  int NOT NULL DEFAULT 0,
  embed_failed_at timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
);

-- Keyword ranker and typeahead: full-text over the live rows of one kind.
CREATE INDEX documents_question_tsv ON search.documents USING gin (tsv) WHERE kind = 'question' AND live;
CREATE INDEX documents_article_tsv ON search.documents USING gin (tsv) WHERE kind = 'article' AND live;
CREATE INDEX documents_deck_tsv ON search.documents USING gin (tsv) WHERE kind = 'deck' AND live;
CREATE INDEX documents_media_tsv ON search.documents USING gin (tsv) WHERE kind = 'media' AND live;

-- Vector ranker: approximate nearest neighbours by cosine distance.
CREATE INDEX documents_question_hnsw ON search.documents USING hnsw (embedding vector_cosine_ops) WHERE kind = 'question' AND live;
CREATE INDEX documents_article_hnsw ON search.documents USING hnsw (embedding vector_cosine_ops) WHERE kind = 'article' AND live;
CREATE INDEX documents_deck_hnsw ON search.documents USING hnsw (embedding vector_cosine_ops) WHERE kind = 'deck' AND live;
CREATE INDEX documents_media_hnsw ON search.documents USING hnsw (embedding vector_cosine_ops) WHERE kind = 'media' AND live;

-- retry_missing_embeddings walks only the rows whose vector is missing or stale.
CREATE INDEX documents_missing_idx ON search.documents (kind, id)
  WHERE NOT purged AND embedded_hash IS DISTINCT FROM content_hash;

-- Site settings (GET/PUT /admin/settings): one JSON value per key. Keys are
-- declared in code (search's own, and any another module registers); a key
-- never written reads as its default.
CREATE TABLE search.settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_by bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Singleton row: the latest regeneration job, so only one runs at a time.
CREATE TABLE search.state (
  id                     boolean PRIMARY KEY DEFAULT true CHECK (id),
  regeneration_job       uuid,
  regeneration_requested timestamptz
);
INSERT INTO search.state DEFAULT VALUES;

-- +goose Down
DROP TABLE search.state;
DROP TABLE search.settings;
DROP TABLE search.documents;
