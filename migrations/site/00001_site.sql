-- +goose Up
-- Messages sent through the contact form. The client's address is kept
-- for abuse handling beside the per-address rate limit; mailed_at is set
-- by the job that mails the submission to the admin (null: not yet, or no
-- admin address configured).
CREATE TABLE site.contact_submissions (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL,
  email       text NOT NULL,
  type        text NOT NULL,
  message     text NOT NULL,
  read        boolean NOT NULL DEFAULT false,
  client      text NOT NULL DEFAULT '',
  mailed_at   timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_submissions_created_idx ON site.contact_submissions (created_at DESC, id DESC);
CREATE INDEX contact_submissions_unread_idx ON site.contact_submissions (created_at DESC, id DESC) WHERE NOT read;

-- +goose Down
DROP TABLE site.contact_submissions;
