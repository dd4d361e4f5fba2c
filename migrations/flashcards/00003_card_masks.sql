-- +goose Up
-- An image occlusion card hides one overlay shape of its picture: the
-- shape is copied onto the card when it is made, so later edits of the
-- overlay do not move what existing cards (and their schedules) ask.
ALTER TABLE flashcards.cards ADD COLUMN mask jsonb;
-- GET /uploads asks which decks show a picture.
CREATE INDEX cards_picture_idx ON flashcards.cards (picture_id) WHERE picture_id IS NOT NULL;

-- +goose Down
DROP INDEX flashcards.cards_picture_idx;
ALTER TABLE flashcards.cards DROP COLUMN mask;
