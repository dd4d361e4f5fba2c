package library

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
)

// ArticleSectionExists tells labs and plans whether an article exists and
// has the section with the given stable key ("" asks only for the article).
func (m *Module) ArticleSectionExists(ctx context.Context, articleID int64, sectionKey string) (article, section bool, err error) {
	return m.svc.ArticleSection(ctx, articleID, sectionKey, nil)
}

// FlashcardArticle checks a card's article link: the article exists and,
// when given, the section (by its numeric id) is one of its sections.
func (m *Module) FlashcardArticle(ctx context.Context, articleID int64, sectionID *int64) error {
	article, section, err := m.svc.ArticleSection(ctx, articleID, "", sectionID)
	switch {
	case err != nil:
		return err
	case !article:
		return apperr.Invalidf("body.article_id", "article %d does not exist", articleID)
	case sectionID != nil && !section:
		return apperr.Invalidf("body.section_id", "article %d has no section %d", articleID, *sectionID)
	}
	return nil
}
