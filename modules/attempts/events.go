package attempts

import (
	"time"

	"github.com/roundsedu/rounds/platform/events"
)

// TopicAttemptCompleted is published in the transaction that completes an
// attempt: an explicit submit, or the auto-submit of a timed attempt whose
// time ran out (on read or by the sweep). Study plans mark a block done on it.
var TopicAttemptCompleted = events.NewTopic[AttemptCompleted]("attempts.attempt_completed.v1")

// AttemptCompleted is its payload.
type AttemptCompleted struct {
	AttemptID      int64     `json:"attempt_id"`
	UserID         int64     `json:"user_id"`
	QuizID         int64     `json:"quiz_id"`
	Mode           string    `json:"mode"`
	Score          int       `json:"score"`
	TotalQuestions int       `json:"total_questions"`
	Percentage     float64   `json:"percentage"`
	CompletedAt    time.Time `json:"completed_at"`
	AutoSubmitted  bool      `json:"auto_submitted"`
}
