package store

import "context"

// Empty reports whether the bank holds no questions, quizzes or categories.
func (s *Store) Empty(ctx context.Context) (bool, error) {
	var empty bool
	err := s.db.Conn(ctx).Raw(`SELECT NOT EXISTS (SELECT 1 FROM bank.questions)
		AND NOT EXISTS (SELECT 1 FROM bank.quizzes) AND NOT EXISTS (SELECT 1 FROM bank.question_categories)`).
		Scan(&empty).Error
	return empty, err
}

// Lock takes a transaction-scoped advisory lock (seeding on several
// replicas at once).
func (s *Store) Lock(ctx context.Context, key int64) error {
	return s.db.Conn(ctx).Exec(`SELECT pg_advisory_xact_lock(?)`, key).Error
}
