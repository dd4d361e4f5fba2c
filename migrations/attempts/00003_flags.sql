-- +goose Up
-- The questions a learner flagged while sitting, sent with the submission
-- and shown in the attempt's review.
ALTER TABLE attempts.answers ADD COLUMN flagged boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE attempts.answers DROP COLUMN flagged;
