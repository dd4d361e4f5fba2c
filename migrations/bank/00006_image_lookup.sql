-- +goose Up
-- GET /uploads asks which live questions show a stored file (a learner's
-- question image outside an attempt). Without these that is a scan of
-- every question per image request; with them a bitmap OR of three index
-- probes.
CREATE INDEX questions_image_path ON bank.questions (image_path) WHERE deleted_at IS NULL;
CREATE INDEX questions_explanation_image_path ON bank.questions (explanation_image_path) WHERE deleted_at IS NULL;
CREATE INDEX questions_figures ON bank.questions USING gin (figures jsonb_path_ops) WHERE deleted_at IS NULL;

-- +goose Down
DROP INDEX bank.questions_figures;
DROP INDEX bank.questions_explanation_image_path;
DROP INDEX bank.questions_image_path;
