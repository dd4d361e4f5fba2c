package flashcards

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// ShareKinds names what may be shared by link from here (the share
// module's Target).
func (m *Module) ShareKinds() []string { return []string{"deck"} }

// ShareTarget lets anyone who may study a shared deck hand out a link to
// it. A deck's cards always show both sides, so with_answers changes
// nothing.
func (m *Module) ShareTarget(ctx context.Context, p auth.Principal, _ string, id int64, _ bool) (string, error) {
	return m.svc.ShareableDeck(ctx, p, id)
}

// SharedView is the deck while it is live and shared (410 once it is not).
func (m *Module) SharedView(ctx context.Context, _ string, id int64, _ bool) (any, error) {
	return m.svc.SharedView(ctx, id)
}
