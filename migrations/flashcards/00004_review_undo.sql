-- +goose Up
-- A review keeps the learner's state of the card before it, so the latest
-- rating can be taken back (DELETE /flashcards/cards/{id}/review). Reviews
-- logged before this column (and imported ones) have none: they stay.
ALTER TABLE flashcards.review_logs ADD COLUMN prior jsonb;

-- +goose Down
ALTER TABLE flashcards.review_logs DROP COLUMN prior;
