-- +goose Up
-- Lab reference values: one row per test, group and age group. The SI
-- range and units are required; a conventional range and its units are
-- kept beside them where the test has both (mmol/L and mg/dL). article_id
-- and card ids name rows of the library and flashcards modules (no foreign
-- keys across schemas).
CREATE TABLE labs.lab_values (
  id                  bigserial PRIMARY KEY,
  name                text NOT NULL,
  group_name          text NOT NULL,
  reference_range     text NOT NULL,
  units               text NOT NULL,
  conventional_range  text,
  conventional_units  text,
  age_group           text NOT NULL,
  specimen            text NOT NULL,
  source              text NOT NULL,
  source_url          text,
  article_id          bigint,
  article_section_id  text,
  is_published        boolean NOT NULL DEFAULT false,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (article_section_id IS NULL OR article_id IS NOT NULL),
  CHECK ((conventional_range IS NULL) = (conventional_units IS NULL))
);
-- The listing's order; the published filter rides along.
CREATE INDEX lab_values_order_idx ON labs.lab_values (group_name, name, id);
CREATE INDEX lab_values_published_idx ON labs.lab_values (group_name, name, id) WHERE is_published;

-- Flashcards linked to a value (card ids belong to the flashcards module).
CREATE TABLE labs.lab_value_cards (
  lab_value_id bigint NOT NULL REFERENCES labs.lab_values (id) ON DELETE CASCADE,
  card_id      bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (lab_value_id, card_id)
);
CREATE INDEX lab_value_cards_card_idx ON labs.lab_value_cards (card_id);

-- +goose Down
DROP TABLE labs.lab_value_cards;
DROP TABLE labs.lab_values;
