-- +goose Up
-- The index contract's topic (search.IndexChanged): modules that own
-- searchable items publish their changes on it.
SELECT events.ensure_topic('search.index_changed.v1');

-- +goose Down
SELECT 1;
