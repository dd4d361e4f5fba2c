package attempts

import "context"

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
