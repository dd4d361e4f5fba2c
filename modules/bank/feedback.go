package bank

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// FeedbackKinds names what learners may report problems with in the bank
// (the feedback module's Target).
func (m *Module) FeedbackKinds() []string { return []string{"question"} }

// FeedbackTarget checks the caller may read the question they report (its
// stem is open to anyone signed in; a binned one only to moderators) and
// gives its text as the report's title.
func (m *Module) FeedbackTarget(ctx context.Context, p auth.Principal, _ string, id int64) (string, error) {
	q, err := m.svc.Detail(ctx, p, id, nil)
	if err != nil {
		return "", err
	}
	return q.Text, nil
}
