package store

import "context"

// MarkSavedTest records quiz as userID's saved test.
func (s *Store) MarkSavedTest(ctx context.Context, quizID, userID int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO bank.saved_tests (quiz_id, user_id) VALUES (?, ?)`, quizID, userID).Error
}
