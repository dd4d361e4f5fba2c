-- +goose Up
-- Share links: an unguessable token opening one published thing (a quiz
-- now; a deck or an article when their modules offer them) to anyone who
-- has the link, read-only. Only the token's SHA-256 (hex) is stored, so the table
-- cannot be replayed into working links; the token is shown once, at
-- creation. kind names the owning module's kind of thing and target_id its
-- id there (no foreign key across schemas).
CREATE TABLE share.links (
  id           bigserial PRIMARY KEY,
  token_hash   text NOT NULL UNIQUE,
  kind         text NOT NULL,
  target_id    bigint NOT NULL,
  title        text NOT NULL DEFAULT '',
  with_answers boolean NOT NULL DEFAULT false,
  created_by   bigint NOT NULL,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  revoked_by   bigint,
  views        bigint NOT NULL DEFAULT 0,
  last_viewed_at timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX links_creator_idx ON share.links (created_by, created_at DESC, id DESC);
CREATE INDEX links_target_idx ON share.links (kind, target_id);

-- +goose Down
DROP TABLE share.links;
