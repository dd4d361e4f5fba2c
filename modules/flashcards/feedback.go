package flashcards

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// FeedbackKinds names what learners may report problems with here (the
// feedback module's Target).
func (m *Module) FeedbackKinds() []string { return []string{"card"} }

// FeedbackTarget checks the caller may study the card's deck (404
// otherwise) and gives the card's question side as the report's title.
func (m *Module) FeedbackTarget(ctx context.Context, p auth.Principal, _ string, id int64) (string, error) {
	return m.svc.CardTitle(ctx, p, id)
}
