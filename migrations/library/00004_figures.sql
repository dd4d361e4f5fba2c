-- +goose Up
-- Figures: which stored file (path, a storage key the media module owns)
-- each section shows as a markdown image line. Rebuilt from the markdown on
-- every save of the article, so the rows never disagree with the text; ord
-- is the position in the article (section order, then line order), which
-- the gallery follows.
CREATE TABLE library.figures (
  article_id  bigint NOT NULL REFERENCES library.articles (id) ON DELETE CASCADE,
  section_key text NOT NULL,
  path        text NOT NULL,
  ord         int NOT NULL,
  alt         text NOT NULL DEFAULT '',
  PRIMARY KEY (article_id, section_key, path)
);
CREATE INDEX figures_path_idx ON library.figures (path);

-- +goose Down
DROP TABLE library.figures;
