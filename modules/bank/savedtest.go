package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// BuildSavedTest files a learner's saved test: an unpublished quiz owned by
// p, in mode (ModeTimed or ModeLearning) with timeLimitMinutes (0: none),
// of those questionIDs p may see, in order. Only p (and moderators) may sit
// it through QuizForSitting. A 409 *apperr.Error when none of the questions
// is open to p. Study plans start blocks and exams with it.
func (m *Module) BuildSavedTest(ctx context.Context, p auth.Principal, title, mode string, timeLimitMinutes int,
	questionIDs []int64) (int64, error) {
	z, err := m.svc.BuildSavedTest(ctx, p, app.SavedTest{Title: title, Mode: mode, TimeLimitMinutes: timeLimitMinutes,
		QuestionIDs: questionIDs})
	if err != nil {
		return 0, err
	}
	return z.ID, nil
}
