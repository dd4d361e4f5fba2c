-- +goose Up
-- Answer-side text (a question's explanation) must only be matched for
-- callers who may read it. The public full-text vector now holds title and
-- body only; tsv_all adds the hidden text and is read only for items the
-- caller may edit (see docs/decisions/search.md, "Who finds what").
ALTER TABLE search.documents RENAME COLUMN extra TO hidden;
ALTER TABLE search.documents DROP COLUMN tsv;
ALTER TABLE search.documents
  ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', body), 'B')) STORED,
  ADD COLUMN tsv_all tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', body), 'B') ||
    setweight(to_tsvector('english', hidden), 'D')) STORED;

CREATE INDEX documents_question_tsv ON search.documents USING gin (tsv) WHERE kind = 'question' AND live;
CREATE INDEX documents_article_tsv ON search.documents USING gin (tsv) WHERE kind = 'article' AND live;
CREATE INDEX documents_deck_tsv ON search.documents USING gin (tsv) WHERE kind = 'deck' AND live;
CREATE INDEX documents_media_tsv ON search.documents USING gin (tsv) WHERE kind = 'media' AND live;
CREATE INDEX documents_question_tsv_all ON search.documents USING gin (tsv_all) WHERE kind = 'question' AND live;
CREATE INDEX documents_article_tsv_all ON search.documents USING gin (tsv_all) WHERE kind = 'article' AND live;
CREATE INDEX documents_deck_tsv_all ON search.documents USING gin (tsv_all) WHERE kind = 'deck' AND live;
CREATE INDEX documents_media_tsv_all ON search.documents USING gin (tsv_all) WHERE kind = 'media' AND live;

-- +goose Down
ALTER TABLE search.documents DROP COLUMN tsv_all;
ALTER TABLE search.documents DROP COLUMN tsv;
ALTER TABLE search.documents RENAME COLUMN hidden TO extra;
ALTER TABLE search.documents
  ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', body), 'B') ||
    setweight(to_tsvector('english', extra), 'D')) STORED;
CREATE INDEX documents_question_tsv ON search.documents USING gin (tsv) WHERE kind = 'question' AND live;
CREATE INDEX documents_article_tsv ON search.documents USING gin (tsv) WHERE kind = 'article' AND live;
CREATE INDEX documents_deck_tsv ON search.documents USING gin (tsv) WHERE kind = 'deck' AND live;
CREATE INDEX documents_media_tsv ON search.documents USING gin (tsv) WHERE kind = 'media' AND live;
