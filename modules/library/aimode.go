package library

import "context"

// ArticlesOfSections maps section ids (search's article kind) to article
// ids, for the AI module's links.
func (m *Module) ArticlesOfSections(ctx context.Context, sectionIDs []int64) (map[int64]int64, error) {
	return m.svc.ArticlesOfSections(ctx, sectionIDs)
}
