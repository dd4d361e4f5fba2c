package attempts

import (
	"context"
	"time"
)

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

// Answered is one of a learner's own answers, as their tutor may know it.
type Answered struct {
	QuestionID int64
	Mode       string   // how it was sat: timed or learning
	Answer     string   // "" when left blank
	Correct    *bool    // nil where the learner may not be told yet
	Running    bool     // saved in an attempt not yet submitted
	Seconds    *float64 // the sitting's time per question; nil while running
	At         time.Time
}

// CategoryScore is how a learner does on the questions filed in one
// category over their completed attempts.
type CategoryScore struct {
	CategoryID    int64
	Name          string
	Seen, Correct int
	Percentage    float64
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
	// RecentAnswers lists userID's own latest answers to the questions among
	// ids (nil: any question), newest first, at most limit: completed
	// attempts' and those saved in attempts not yet submitted. Correct is
	// told only where the answer side is open (a completed attempt, a
	// running study one) and never for a question that sits in one of
	// userID's timed attempts not yet submitted.
	RecentAnswers(ctx context.Context, userID int64, ids []int64, limit int) ([]Answered, error)
	// SittingTimed reports whether the question sits in one of userID's
	// timed attempts not yet submitted (its answer side is closed to them).
	SittingTimed(ctx context.Context, userID, questionID int64) (bool, error)
	// WeakestCategories gives userID's n weakest filed categories over their
	// completed attempts, weakest first (the dashboard's ranking).
	WeakestCategories(ctx context.Context, userID int64, n int) ([]CategoryScore, error)
	// LastAnswers says how userID last met each of ids in a completed
	// attempt: met holds every question met, true where that answer was
	// right; flagged holds those flagged then (custom blocks' history).
	LastAnswers(ctx context.Context, userID int64, ids []int64) (met, flagged map[int64]bool, err error)
}
