package identity

import "context"

// PublicCounts offers the landing page (the site module) the number of
// learners: every account.
func (m *Module) PublicCounts(ctx context.Context) (map[string]int64, error) {
	n, err := m.store.CountUsers(ctx)
	return map[string]int64{"learners": n}, err
}
