-- +goose Up
-- The enqueuing request's W3C trace context (traceparent, tracestate), so the
-- job's run continues that trace. NULL when tracing is off or there was no
-- span to continue.
ALTER TABLE platform.jobs ADD COLUMN trace jsonb;

-- +goose Down
ALTER TABLE platform.jobs DROP COLUMN trace;
