package bank

import "context"

// PublicCounts offers the landing page (the site module) the number of
// live questions and published quizzes.
func (m *Module) PublicCounts(ctx context.Context) (map[string]int64, error) {
	return m.svc.PublicCounts(ctx)
}
