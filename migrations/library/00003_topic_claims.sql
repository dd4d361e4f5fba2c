-- +goose Up
-- Topic claims: an article claims the question categories it covers, and
-- questions filed there link to it ("read more"). question_filings is the
-- library's copy of where each bank question is filed (fed by
-- bank.question_changed.v1 and checked by apply_topic_claims);
-- question_links is the rule applied, read by the bank's payloads.
CREATE TABLE library.topic_claims (
  article_id  bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  category_id bigint NOT NULL,
  PRIMARY KEY (article_id, category_id)
);
CREATE INDEX topic_claims_category_idx ON library.topic_claims (category_id);

CREATE TABLE library.question_filings (
  question_id bigint PRIMARY KEY,
  category_id bigint,
  live        boolean NOT NULL,
  version     int NOT NULL DEFAULT 0
);
CREATE INDEX question_filings_category_idx ON library.question_filings (category_id) WHERE live;

CREATE TABLE library.question_links (
  question_id bigint NOT NULL,
  article_id  bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  PRIMARY KEY (question_id, article_id)
);
CREATE INDEX question_links_article_idx ON library.question_links (article_id);

-- +goose Down
DROP TABLE library.question_links;
DROP TABLE library.question_filings;
DROP TABLE library.topic_claims;
