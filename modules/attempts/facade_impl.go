package attempts

import (
	"context"
	"github.com/roundsedu/rounds/platform/opt"
)

// AuthorizesAnswers implements Facade (and bank.AttemptAccess).
func (m *Module) AuthorizesAnswers(ctx context.Context, userID, attemptID, questionID int64) (bool, error) {
	return m.svc.AuthorizesAnswers(ctx, userID, attemptID, questionID)
}

// HasCompletedAttempt implements Facade (and bank.AttemptAccess).
func (m *Module) HasCompletedAttempt(ctx context.Context, userID, quizID int64) (bool, error) {
	return m.svc.HasCompletedAttempt(ctx, userID, quizID)
}

// AuthorizedQuestions implements Facade.
func (m *Module) AuthorizedQuestions(ctx context.Context, userID, attemptID int64) ([]int64, error) {
	return m.svc.AuthorizedQuestions(ctx, userID, attemptID)
}

// AuthorizesMedia implements Facade.
func (m *Module) AuthorizesMedia(ctx context.Context, userID, attemptID int64, key string) (bool, error) {
	return m.svc.AuthorizesMedia(ctx, userID, attemptID, key)
}

// CompletedSitting implements Facade.
func (m *Module) CompletedSitting(ctx context.Context, attemptID int64) (*Sitting, error) {
	a, rows, err := m.svc.CompletedSitting(ctx, attemptID)
	if err != nil {
		return nil, err
	}
	out := &Sitting{AttemptID: a.ID, UserID: a.UserID, QuizID: a.QuizID, Mode: a.Mode, Responses: make([]Response, len(rows))}
	if a.Percentage != nil {
		out.Percentage = *a.Percentage
	}
	for i, r := range rows {
		out.Responses[i] = Response{QuestionID: r.QuestionID, Version: r.Version, Options: r.Options,
			Answer: opt.Deref(r.UserAnswer), Correct: r.IsCorrect != nil && *r.IsCorrect}
	}
	return out, nil
}

// RecentAnswers implements Facade.
func (m *Module) RecentAnswers(ctx context.Context, userID int64, ids []int64, limit int) ([]Answered, error) {
	rows, err := m.svc.OwnAnswers(ctx, userID, ids, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Answered, len(rows))
	for i, r := range rows {
		out[i] = Answered{QuestionID: r.QuestionID, Mode: r.Mode, Answer: opt.Deref(r.Answer), Correct: r.Correct,
			Running: r.Running, Seconds: r.Seconds, At: r.At}
	}
	return out, nil
}

// SittingTimed implements Facade.
func (m *Module) SittingTimed(ctx context.Context, userID, questionID int64) (bool, error) {
	return m.svc.SittingTimed(ctx, userID, questionID)
}

// WeakestCategories implements Facade.
func (m *Module) WeakestCategories(ctx context.Context, userID int64, n int) ([]CategoryScore, error) {
	rows, err := m.svc.WeakestCategories(ctx, userID, n)
	if err != nil {
		return nil, err
	}
	out := make([]CategoryScore, len(rows))
	for i, c := range rows {
		out[i] = CategoryScore{CategoryID: *c.CategoryID, Name: c.CategoryName, Seen: c.Seen, Correct: c.Correct,
			Percentage: c.Percentage}
	}
	return out, nil
}

// LastAnswers implements Facade (and bank.AttemptAccess).
func (m *Module) LastAnswers(ctx context.Context, userID int64, ids []int64) (met, flagged map[int64]bool, err error) {
	h, err := m.svc.LastAnswers(ctx, userID, ids)
	if err != nil {
		return nil, nil, err
	}
	met, flagged = make(map[int64]bool, len(h)), map[int64]bool{}
	for id, a := range h {
		met[id] = a.IsCorrect != nil && *a.IsCorrect
		if a.Flagged {
			flagged[id] = true
		}
	}
	return met, flagged, nil
}
