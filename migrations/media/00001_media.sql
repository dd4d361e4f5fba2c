-- +goose Up
-- Media assets: a stored file (path is a storage key, never a URL) with its
-- editorial facts. library_id names an image library; category_id a bank
-- question category (no foreign keys across schemas). Where an asset is
-- shown is the library's (library.figures); places keeps, while an asset is
-- binned, the sections it was in so a restore can put it back.
CREATE TABLE media.libraries (
  id         bigserial PRIMARY KEY,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX libraries_name_key ON media.libraries (lower(name));

CREATE TABLE media.assets (
  id           bigserial PRIMARY KEY,
  path         text NOT NULL UNIQUE,
  title        text NOT NULL DEFAULT '',
  caption      text NOT NULL DEFAULT '',
  alt_text     text NOT NULL DEFAULT '',
  source       text NOT NULL DEFAULT '',
  source_url   text NOT NULL DEFAULT '',
  license      text NOT NULL DEFAULT '',
  overlay      jsonb NOT NULL DEFAULT '[]',
  kind         text NOT NULL CHECK (kind IN ('image', 'video')),
  content_type text NOT NULL,
  modality     text,
  spec         jsonb,
  library_id   bigint REFERENCES media.libraries (id) ON DELETE SET NULL,
  storage      text NOT NULL DEFAULT 'default',
  byte_size    bigint NOT NULL,
  width        int NOT NULL DEFAULT 0,
  height       int NOT NULL DEFAULT 0,
  category_id  bigint,
  places       jsonb NOT NULL DEFAULT '[]',
  created_by   bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  purged_at    timestamptz
);
CREATE INDEX assets_live_idx ON media.assets (created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX assets_bin_idx ON media.assets (deleted_at) WHERE deleted_at IS NOT NULL AND purged_at IS NULL;

-- +goose Down
DROP TABLE media.assets;
DROP TABLE media.libraries;
