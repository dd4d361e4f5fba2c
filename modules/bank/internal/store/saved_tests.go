package store

import "context"

// MarkSavedTest records quiz as userID's saved test.
func (s *Store) MarkSavedTest(ctx context.Context, quizID, userID int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO bank.saved_tests (quiz_id, user_id) VALUES (?, ?)`, quizID, userID).Error
}

// IsSavedTestOf reports whether quiz is userID's saved test.
func (s *Store) IsSavedTestOf(ctx context.Context, quizID, userID int64) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM bank.saved_tests WHERE quiz_id = ? AND user_id = ?)`,
		quizID, userID).Scan(&ok).Error
	return ok, err
}
