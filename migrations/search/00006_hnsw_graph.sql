-- +goose NO TRANSACTION
-- +goose Up
-- HNSW graphs with 24 links a node, built from a 128-wide candidate list
-- (pgvector's defaults are 16 and 64): a bank's stems share templates and
-- vocabulary, so many vectors lie close together, and the sparser graph
-- let recall@10 move between 0.937 and 0.975 from one build of the same
-- 100,000 questions to the next (docs/decisions/search.md, "HNSW graph
-- parameters"). Each index is built beside the old one without blocking
-- reads or writes (a large bank's build takes minutes; docs/operations.md)
-- and then takes its name; a run cut short is run again from the start.
DROP INDEX CONCURRENTLY IF EXISTS search.documents_question_hnsw_next;
CREATE INDEX CONCURRENTLY documents_question_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WITH (m = 24, ef_construction = 128) WHERE kind = 'question' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_question_hnsw;
ALTER INDEX search.documents_question_hnsw_next RENAME TO documents_question_hnsw;

DROP INDEX CONCURRENTLY IF EXISTS search.documents_article_hnsw_next;
CREATE INDEX CONCURRENTLY documents_article_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WITH (m = 24, ef_construction = 128) WHERE kind = 'article' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_article_hnsw;
ALTER INDEX search.documents_article_hnsw_next RENAME TO documents_article_hnsw;

DROP INDEX CONCURRENTLY IF EXISTS search.documents_deck_hnsw_next;
CREATE INDEX CONCURRENTLY documents_deck_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WITH (m = 24, ef_construction = 128) WHERE kind = 'deck' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_deck_hnsw;
ALTER INDEX search.documents_deck_hnsw_next RENAME TO documents_deck_hnsw;

DROP INDEX CONCURRENTLY IF EXISTS search.documents_media_hnsw_next;
CREATE INDEX CONCURRENTLY documents_media_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WITH (m = 24, ef_construction = 128) WHERE kind = 'media' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_media_hnsw;
ALTER INDEX search.documents_media_hnsw_next RENAME TO documents_media_hnsw;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS search.documents_question_hnsw_next;
CREATE INDEX CONCURRENTLY documents_question_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WHERE kind = 'question' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_question_hnsw;
ALTER INDEX search.documents_question_hnsw_next RENAME TO documents_question_hnsw;

DROP INDEX CONCURRENTLY IF EXISTS search.documents_article_hnsw_next;
CREATE INDEX CONCURRENTLY documents_article_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WHERE kind = 'article' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_article_hnsw;
ALTER INDEX search.documents_article_hnsw_next RENAME TO documents_article_hnsw;

DROP INDEX CONCURRENTLY IF EXISTS search.documents_deck_hnsw_next;
CREATE INDEX CONCURRENTLY documents_deck_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WHERE kind = 'deck' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_deck_hnsw;
ALTER INDEX search.documents_deck_hnsw_next RENAME TO documents_deck_hnsw;

DROP INDEX CONCURRENTLY IF EXISTS search.documents_media_hnsw_next;
CREATE INDEX CONCURRENTLY documents_media_hnsw_next ON search.documents USING hnsw (embedding vector_cosine_ops)
  WHERE kind = 'media' AND live;
DROP INDEX CONCURRENTLY IF EXISTS search.documents_media_hnsw;
ALTER INDEX search.documents_media_hnsw_next RENAME TO documents_media_hnsw;
