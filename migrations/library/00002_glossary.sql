-- +goose Up
-- Glossary terms: a short definition, optionally linked to an article
-- section (article_id names a library article; section_key one of its
-- sections, checked by the service when written).
CREATE TABLE library.glossary_terms (
  id          bigserial PRIMARY KEY,
  term        text NOT NULL,
  definition  text NOT NULL,
  article_id  bigint REFERENCES library.articles (id) ON DELETE SET NULL,
  section_key text,
  created_by  bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX glossary_terms_term_key ON library.glossary_terms (lower(term));

-- +goose Down
DROP TABLE library.glossary_terms;
