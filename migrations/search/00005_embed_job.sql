-- +goose Up
-- The queued embed_pending job, if any: index events enqueue at most one
-- (see docs/decisions/search.md, "Embedding outside transactions").
ALTER TABLE search.state ADD COLUMN embed_job uuid;

-- +goose Down
ALTER TABLE search.state DROP COLUMN embed_job;
