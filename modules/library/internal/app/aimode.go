package app

import "context"

// ArticlesOfSections maps search's article hits, which are sections, to
// their articles (AI Mode links a cited section to its article).
func (s *Service) ArticlesOfSections(ctx context.Context, sectionIDs []int64) (map[int64]int64, error) {
	return s.store.ArticlesOfSections(ctx, sectionIDs)
}
