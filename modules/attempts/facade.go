package attempts

import "context"

// Facade is what other modules may ask attempts. Every question is about the
// caller's own attempt: another user's attempt authorises nothing.
type Facade interface {
	// AuthorizesAnswers reports whether attempt attemptID belongs to userID,
	// contains question questionID, and has opened its answer side: a
	// learning (study) attempt at once, a timed one once submitted.
	AuthorizesAnswers(ctx context.Context, userID, attemptID, questionID int64) (bool, error)
	// HasCompletedAttempt reports whether userID has completed an attempt of
	// the quiz (the quiz review opens to them).
	HasCompletedAttempt(ctx context.Context, userID, quizID int64) (bool, error)
	// AuthorizedQuestions lists the questions of the caller's attempt whose
	// answer side it has opened (empty when none, or not the caller's).
	AuthorizedQuestions(ctx context.Context, userID, attemptID int64) ([]int64, error)
	// AuthorizesMedia reports whether the caller's open attempt sat a
	// question whose image or explanation image is the storage key (media:
	// attempt_id on /uploads for answer-side files).
	AuthorizesMedia(ctx context.Context, userID, attemptID int64, key string) (bool, error)
}
