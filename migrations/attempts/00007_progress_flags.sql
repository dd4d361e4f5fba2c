-- +goose Up
-- The questions a learner flagged while sitting are part of the saved
-- progress, so they follow the learner to another device and survive a
-- closed tab. NULL until a save sends them (a save without them keeps
-- what is stored); no index, so a save stays a HOT update.
ALTER TABLE attempts.saved_progress ADD COLUMN flagged jsonb;

-- +goose Down
ALTER TABLE attempts.saved_progress DROP COLUMN flagged;
