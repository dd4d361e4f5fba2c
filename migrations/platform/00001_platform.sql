-- +goose Up
CREATE EXTENSION IF NOT EXISTS vector;

-- Event bus (Watermill over Postgres). Each topic has a messages table and an
-- offsets table in schema "events"; modules create theirs in their own
-- migrations with events.ensure_topic('<module>.<event>.v1'), because the
-- outbox publisher runs inside business transactions and may not create
-- tables itself. The DDL mirrors watermill-sql's DefaultPostgreSQLSchema.
CREATE SCHEMA IF NOT EXISTS events;

-- +goose StatementBegin
CREATE FUNCTION events.ensure_topic(topic text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF topic !~ '^[A-Za-z0-9_.:$-]+$' THEN
    RAISE EXCEPTION 'invalid topic name %', topic;
  END IF;
  EXECUTE format('CREATE TABLE IF NOT EXISTS events.%I (
      "offset" BIGSERIAL,
      "uuid" VARCHAR(36) NOT NULL,
      "created_at" TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
      "payload" JSON DEFAULT NULL,
      "metadata" JSON DEFAULT NULL,
      "transaction_id" xid8 NOT NULL,
      PRIMARY KEY ("transaction_id", "offset"))', topic);
  EXECUTE format('CREATE TABLE IF NOT EXISTS events.%I (
      consumer_group VARCHAR(255) NOT NULL,
      offset_acked BIGINT,
      last_processed_transaction_id xid8 NOT NULL,
      PRIMARY KEY (consumer_group))', topic || ':offsets');
END $$;
-- +goose StatementEnd

-- Failed events land here after their retries, visible and out of the way.
SELECT events.ensure_topic('platform.poison.v1');

-- One row per (consumer group, message) handled: redelivery becomes a no-op.
CREATE TABLE events.processed (
  consumer_group text NOT NULL,
  message_id     text NOT NULL,
  processed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer_group, message_id)
);
CREATE INDEX processed_at_idx ON events.processed (processed_at);

-- On-demand background jobs: the table is the queue.
CREATE TABLE platform.jobs (
  id           uuid PRIMARY KEY,
  kind         text NOT NULL,
  owner_id     bigint,
  status       text NOT NULL CHECK (status IN ('pending','running','completed','failed','cancelled')),
  payload      jsonb NOT NULL DEFAULT '{}',
  steps        jsonb NOT NULL DEFAULT '[]',
  result       jsonb,
  error        text,
  attempts     int NOT NULL DEFAULT 0,
  max_attempts int NOT NULL,
  worker       text,
  lease_until  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
-- Workers look only at live jobs, oldest first.
CREATE INDEX jobs_live_idx ON platform.jobs (created_at) WHERE status IN ('pending','running');
CREATE INDEX jobs_owner_idx ON platform.jobs (owner_id, kind, created_at DESC);

-- Fixed-window rate-limit counters shared by every replica.
CREATE TABLE platform.rate_counters (
  name         text NOT NULL,
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  count        int NOT NULL,
  PRIMARY KEY (name, key)
);

-- +goose Down
DROP TABLE platform.rate_counters;
DROP TABLE platform.jobs;
DROP SCHEMA events CASCADE;
