package library

import "context"

// ArticlesOfSections maps section ids (search's article kind) to article
// ids, for the AI module's links.
func (m *Module) ArticlesOfSections(ctx context.Context, sectionIDs []int64) (map[int64]int64, error) {
	return m.svc.ArticlesOfSections(ctx, sectionIDs)
}

// ClaimedSection is an opening section of a published article that claims
// a question's topic: what any reader of the library sees.
type ClaimedSection struct {
	ArticleID    int64
	ArticleTitle string
	Slug         string
	Heading      string
	Text         string // the section's markdown, cut at the length asked
}

// ClaimingSections gives, for the AI tutor, the first perArticle sections
// of the first articles (by title, at most articles) that are published
// and claim the question's topic, each cut at chars characters.
func (m *Module) ClaimingSections(ctx context.Context, questionID int64, articles, perArticle, chars int) ([]ClaimedSection, error) {
	rows, err := m.svc.ClaimingSections(ctx, questionID, articles, perArticle, chars)
	if err != nil {
		return nil, err
	}
	out := make([]ClaimedSection, len(rows))
	for i, r := range rows {
		out[i] = ClaimedSection(r)
	}
	return out, nil
}
