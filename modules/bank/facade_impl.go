package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ Facade = (*Module)(nil)

// facadeErr maps the service's 404 to ErrNotFound; other errors (a
// validation failure is an *apperr.Error) pass through.
func facadeErr(err error) error {
	if apperr.Is(err, apperr.NotFound) {
		return ErrNotFound
	}
	return err
}

// QuizForSitting implements Facade.
func (m *Module) QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*QuizSnapshot, error) {
	d, err := m.svc.QuizForSitting(ctx, p, quizID)
	if err != nil {
		return nil, facadeErr(err)
	}
	out := &QuizSnapshot{ID: d.ID, Title: d.Title, Mode: d.Mode, TimeLimitMinutes: d.TimeLimitMinutes,
		IsPublished: d.IsPublished, SavedTest: d.SavedTest, Questions: make([]QuestionSnapshot, 0, len(d.Questions)),
		ContentVersion: d.Version}
	for _, q := range d.Questions {
		out.Questions = append(out.Questions, toSnapshot(q))
	}
	return out, nil
}

func toSnapshot(q *app.Question) QuestionSnapshot {
	return QuestionSnapshot{ID: q.ID, Type: q.Type, Text: q.Text, Options: q.Options,
		CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation, OptionExplanations: q.OptionExplanations,
		KeyPoints: q.KeyPoints, AttendingTip: q.AttendingTip, ExplanationImagePath: q.ExplanationImagePath,
		ImagePath: q.ImagePath, CategoryID: q.CategoryID, CategoryName: q.CategoryName, Version: q.Version}
}

// QuestionFilings implements Facade.
func (m *Module) QuestionFilings(ctx context.Context, ids []int64) (map[int64]Filing, error) {
	return m.svc.QuestionFilings(ctx, ids)
}

// CreateQuestions implements Facade.
func (m *Module) CreateQuestions(ctx context.Context, by int64, qs []NewQuestion) ([]int64, error) {
	in := make([]app.NewQuestion, len(qs))
	for i, q := range qs {
		in[i] = app.NewQuestion{CategoryID: q.CategoryID, Content: app.Content{Type: q.Type, Text: q.Text,
			Options: q.Options, CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation,
			ImagePath: q.ImagePath, ExplanationImagePath: q.ExplanationImagePath}}
	}
	ids, err := m.svc.CreateQuestions(ctx, by, in)
	if err != nil {
		return nil, refused(err, len(qs))
	}
	return ids, nil
}

// CheckCategory implements Facade.
func (m *Module) CheckCategory(ctx context.Context, field string, id int64) error {
	return m.svc.CheckCategory(ctx, field, id)
}

// CountQuizzes implements Facade.
func (m *Module) CountQuizzes(ctx context.Context, p auth.Principal) (int, error) {
	return m.svc.CountQuizzes(ctx, p)
}

// RequireQuestions implements Facade.
func (m *Module) RequireQuestions(ctx context.Context, p auth.Principal, ids ...int64) error {
	return m.svc.RequireReach(ctx, p, ids...)
}

// CanEditQuestion implements Facade.
func (m *Module) CanEditQuestion(ctx context.Context, p auth.Principal, questionID int64) (bool, error) {
	ok, err := m.svc.CanEditQuestion(ctx, p, questionID)
	return ok, facadeErr(err)
}

// GrantCovers implements Facade.
func (m *Module) GrantCovers(ctx context.Context, g identity.Grant, questionID int64) (bool, error) {
	ok, err := m.svc.GrantCovers(ctx, g, questionID)
	return ok, facadeErr(err)
}

// CategoryWithin implements Facade.
func (m *Module) CategoryWithin(ctx context.Context, id, root int64) (bool, error) {
	return m.svc.CategoryWithin(ctx, id, root)
}
