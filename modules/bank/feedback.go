package bank

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// FeedbackKinds names what learners may report problems with in the bank
// (the feedback module's Target).
func (m *Module) FeedbackKinds() []string { return []string{"question"} }

// FeedbackTarget checks the caller reaches the question they report (the
// bank's reach policy: a binned or unreached one is the 404 of a missing
// one) and gives its text as the report's title.
func (m *Module) FeedbackTarget(ctx context.Context, p auth.Principal, _ string, id int64) (string, error) {
	q, err := m.svc.ReachedDetail(ctx, p, id, nil)
	if err != nil {
		return "", err
	}
	return q.Text, nil
}
