package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ search.Reach = (*Module)(nil)

// Kinds implements search.Reach: the bank owns the question kind.
func (m *Module) Kinds() []search.Kind { return []search.Kind{search.KindQuestion} }

// Reachable implements search.Reach (see app.SearchReach for the rules).
func (m *Module) Reachable(ctx context.Context, p auth.Principal, _ search.Kind, ids []int64) (visible, editable map[int64]bool, err error) {
	return m.svc.SearchReach(ctx, p, ids)
}
