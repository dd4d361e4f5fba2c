-- +goose Up

-- A draft's pictures: storage keys of media assets (an imported Moodle
-- question's picture and its explanation's), the bank question's
-- image_path and explanation_image_path once accepted.
ALTER TABLE drafts.drafts
  ADD COLUMN image_path text NOT NULL DEFAULT '',
  ADD COLUMN explanation_image_path text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE drafts.drafts DROP COLUMN image_path, DROP COLUMN explanation_image_path;
