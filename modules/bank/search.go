package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ search.Reach = (*Module)(nil)

// Kinds implements search.Reach: the bank owns the question kind.
func (m *Module) Kinds() []search.Kind { return []search.Kind{search.KindQuestion} }

// Reachable implements search.Reach with the bank's reach policy (see
// app.Service.Reach for the rules). For a moderator it gives the policy's
// answer without the lookup: they reach every live question, and search
// holds only live questions (the bank's events take binned ones out).
func (m *Module) Reachable(ctx context.Context, p auth.Principal, _ search.Kind, ids []int64) (visible, editable map[int64]bool, err error) {
	if p.IsModerator() {
		visible, editable = make(map[int64]bool, len(ids)), make(map[int64]bool, len(ids))
		for _, id := range ids {
			visible[id], editable[id] = true, true
		}
		return visible, editable, nil
	}
	return m.svc.Reach(ctx, p, ids)
}
