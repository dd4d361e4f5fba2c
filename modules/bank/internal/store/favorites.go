package store

import "context"

// AddFavorite records a favourite once and returns it (the existing one on
// a repeat).
func (s *Store) AddFavorite(ctx context.Context, userID, questionID int64) (*Favorite, error) {
	var f Favorite
	err := s.db.Conn(ctx).Raw(`WITH ins AS (
		INSERT INTO bank.favorites (user_id, question_id) VALUES (?, ?) ON CONFLICT DO NOTHING
		RETURNING id, user_id, question_id, created_at)
		SELECT * FROM ins UNION ALL
		SELECT id, user_id, question_id, created_at FROM bank.favorites WHERE user_id = ? AND question_id = ?
		LIMIT 1`, userID, questionID, userID, questionID).Scan(&f).Error
	return &f, err
}

// RemoveFavorite forgets a favourite (nothing happens when there is none).
func (s *Store) RemoveFavorite(ctx context.Context, userID, questionID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.favorites WHERE user_id = ? AND question_id = ?`,
		userID, questionID).Error
}

// ForgetFavorites removes every favourite of a user.
func (s *Store) ForgetFavorites(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.favorites WHERE user_id = ?`, userID).Error
}

// FavoriteIDs lists the live questions a user favourited, newest first.
func (s *Store) FavoriteIDs(ctx context.Context, userID int64) ([]int64, error) {
	ids := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT f.question_id FROM bank.favorites f
		JOIN bank.questions q ON q.id = f.question_id AND q.deleted_at IS NULL
		WHERE f.user_id = ? ORDER BY f.created_at DESC, f.id DESC`, userID).Scan(&ids).Error
	return ids, err
}
