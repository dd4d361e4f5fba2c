package store

import "context"

// PublicCounts counts the live questions and the published live quizzes.
func (s *Store) PublicCounts(ctx context.Context) (questions, quizzes int64, err error) {
	var c struct{ Questions, Quizzes int64 }
	err = s.db.Conn(ctx).Raw(`SELECT
		  (SELECT count(*) FROM bank.questions WHERE deleted_at IS NULL) AS questions,
		  (SELECT count(*) FROM bank.quizzes WHERE deleted_at IS NULL AND is_published) AS quizzes`).Scan(&c).Error
	return c.Questions, c.Quizzes, err
}
