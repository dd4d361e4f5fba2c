package store

import (
	"context"

	"github.com/roundsedu/rounds/platform/db"
)

// LastAnswer is how a learner last met one question: in their most recently
// completed attempt that held it.
type LastAnswer struct {
	QuestionID int64
	IsCorrect  *bool
	Flagged    bool
}

// LastAnswers reads, for each of ids the learner met in a completed attempt,
// the latest such meeting; a question never met has no row.
func (s *Store) LastAnswers(ctx context.Context, userID int64, ids []int64) ([]LastAnswer, error) {
	out := []LastAnswer{}
	err := s.db.Conn(ctx).Raw(`SELECT DISTINCT ON (an.question_id) an.question_id, an.is_correct, an.flagged
		FROM attempts.answers an JOIN attempts.attempts a ON a.id = an.attempt_id
		WHERE a.user_id = ? AND a.completed_at IS NOT NULL AND an.question_id = ANY(?::bigint[])
		ORDER BY an.question_id, a.completed_at DESC, a.id DESC`, userID, db.IDArray(ids)).Scan(&out).Error
	return out, err
}
