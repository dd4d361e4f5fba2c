-- +goose Up
-- Decks and their cards. category_id is a bank question category and
-- user_id an identity user, both by id (no foreign keys across schemas).
CREATE TABLE flashcards.decks (
  id             bigserial PRIMARY KEY,
  title          text NOT NULL,
  description    text NOT NULL DEFAULT '',
  category_id    bigint,
  user_id        bigint NOT NULL,
  is_shared      boolean NOT NULL DEFAULT false,
  ignore_accents boolean NOT NULL DEFAULT false,
  deleted_at     timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX decks_live_idx ON flashcards.decks (id) WHERE deleted_at IS NULL;
CREATE INDEX decks_trash_idx ON flashcards.decks (deleted_at DESC) WHERE deleted_at IS NOT NULL;
CREATE INDEX decks_category_idx ON flashcards.decks (category_id);

-- One row per scheduled card: a reversed card is two rows sharing pair_id
-- (the first row's id), a cloze passage one row per deletion number.
-- Picture, question and article links are ids in other modules.
CREATE TABLE flashcards.cards (
  id             bigserial PRIMARY KEY,
  deck_id        bigint NOT NULL REFERENCES flashcards.decks (id) ON DELETE CASCADE,
  card_type      text NOT NULL CHECK (card_type IN ('basic', 'reversed', 'cloze', 'image', 'type_in')),
  front          text NOT NULL,
  back           text NOT NULL DEFAULT '',
  cloze_number   int,
  pair_id        bigint,
  picture_id     bigint,
  question_id    bigint,
  article_id     bigint,
  section_id     bigint,
  created_by     bigint NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cards_deck_idx ON flashcards.cards (deck_id, id);
CREATE INDEX cards_pair_idx ON flashcards.cards (pair_id) WHERE pair_id IS NOT NULL;

-- A learner's FSRS state of a card (no row until the first review;
-- last_review is null only inside the first review's transaction).
CREATE TABLE flashcards.card_states (
  user_id        bigint NOT NULL,
  card_id        bigint NOT NULL REFERENCES flashcards.cards (id) ON DELETE CASCADE,
  deck_id        bigint NOT NULL REFERENCES flashcards.decks (id) ON DELETE CASCADE,
  due            timestamptz NOT NULL,
  stability      double precision NOT NULL,
  difficulty     double precision NOT NULL,
  elapsed_days   int NOT NULL,
  scheduled_days int NOT NULL,
  reps           int NOT NULL,
  lapses         int NOT NULL,
  state          smallint NOT NULL,
  last_review    timestamptz,
  PRIMARY KEY (user_id, card_id)
);
-- The queue reads a learner's due rows from the index alone.
CREATE INDEX card_states_due_idx ON flashcards.card_states (user_id, due)
  INCLUDE (deck_id, card_id, state, stability, last_review);
CREATE INDEX card_states_deck_due_idx ON flashcards.card_states (user_id, deck_id, due);

-- Every review, with what FSRS optimisers read: card, rating, review time,
-- elapsed days and the state before the review (0 new, 1 learning,
-- 2 review, 3 relearning); scheduled_days is the interval given.
CREATE TABLE flashcards.review_logs (
  id             bigserial PRIMARY KEY,
  user_id        bigint NOT NULL,
  card_id        bigint NOT NULL REFERENCES flashcards.cards (id) ON DELETE CASCADE,
  deck_id        bigint NOT NULL,
  rating         smallint NOT NULL CHECK (rating BETWEEN 1 AND 4),
  state          smallint NOT NULL,
  elapsed_days   int NOT NULL,
  scheduled_days int NOT NULL,
  reviewed_at    timestamptz NOT NULL,
  duration_ms    int
);
CREATE INDEX review_logs_user_idx ON flashcards.review_logs (user_id, reviewed_at);

-- A learner's scheduling choices.
CREATE TABLE flashcards.learner_settings (
  user_id           bigint PRIMARY KEY,
  desired_retention double precision NOT NULL CHECK (desired_retention BETWEEN 0.7 AND 0.99)
);

-- A learner's exam date for a deck.
CREATE TABLE flashcards.deck_exams (
  user_id   bigint NOT NULL,
  deck_id   bigint NOT NULL REFERENCES flashcards.decks (id) ON DELETE CASCADE,
  exam_date date NOT NULL,
  PRIMARY KEY (user_id, deck_id)
);

-- +goose Down
DROP TABLE flashcards.deck_exams;
DROP TABLE flashcards.learner_settings;
DROP TABLE flashcards.review_logs;
DROP TABLE flashcards.card_states;
DROP TABLE flashcards.cards;
DROP TABLE flashcards.decks;
