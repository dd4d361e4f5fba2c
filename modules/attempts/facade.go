package attempts

import "context"

// Sitting is a completed attempt with what was answered, as item analysis
// reads it.
type Sitting struct {
	AttemptID, UserID, QuizID int64
	Mode                      string
	Percentage                float64
	Responses                 []Response
}

// Response is one question of a sitting: the version sat, its options,
// the answer given ("" when left blank) and whether it was right.
type Response struct {
	QuestionID int64
	Version    int
	Options    []string
	Answer     string
	Correct    bool
}

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
	// AuthorizesMedia reports whether the caller's attempt sat a question
	// whose image (always) or explanation image (once the answer side is
	// open) is the storage key (media: attempt_id on /uploads).
	AuthorizesMedia(ctx context.Context, userID, attemptID int64, key string) (bool, error)
	// CompletedSitting is a completed attempt with its responses, whoever's
	// it is (db.ErrNotFound when missing or not completed): for item
	// analysis, which checks ownership itself where a caller asks.
	CompletedSitting(ctx context.Context, attemptID int64) (*Sitting, error)
	// LastAnswers says how userID last met each of ids in a completed
	// attempt: met holds every question met, true where that answer was
	// right; flagged holds those flagged then (custom blocks' history).
	LastAnswers(ctx context.Context, userID int64, ids []int64) (met, flagged map[int64]bool, err error)
}
