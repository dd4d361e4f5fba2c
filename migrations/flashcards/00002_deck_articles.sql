-- +goose Up
-- The library articles a deck's cards came from; exactly one link of a
-- deck that has any is flagged as its source (article_id is a library
-- article, by id: no foreign key across schemas).
CREATE TABLE flashcards.deck_articles (
  deck_id    bigint NOT NULL REFERENCES flashcards.decks (id) ON DELETE CASCADE,
  article_id bigint NOT NULL,
  is_source  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (deck_id, article_id)
);
CREATE UNIQUE INDEX deck_articles_one_source_idx ON flashcards.deck_articles (deck_id) WHERE is_source;

-- +goose Down
DROP TABLE flashcards.deck_articles;
