package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// FavoriteExport is a question the learner marked.
type FavoriteExport struct {
	QuestionID int64     `json:"question_id"`
	CreatedAt  time.Time `json:"created_at"`
}

// SavedTestExport is a quiz the bank built for the learner (a plan block
// or an exam paper they started).
type SavedTestExport struct {
	QuizID      int64           `json:"quiz_id"`
	Title       string          `json:"title"`
	Mode        string          `json:"mode"`
	CreatedAt   time.Time       `json:"created_at"`
	QuestionIDs json.RawMessage `json:"question_ids"`
}

// ExportPersonalData writes the user's favourites and saved tests.
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	conn := s.db.Conn(ctx)
	err := module.Rows[FavoriteExport](x, "favorites", conn.Raw(`
		SELECT question_id, created_at FROM bank.favorites WHERE user_id = ? ORDER BY id`, userID))
	if err != nil {
		return err
	}
	return module.Rows[SavedTestExport](x, "saved_tests", conn.Raw(`
		SELECT t.quiz_id, z.title, z.mode, t.created_at,
		       (SELECT coalesce(json_agg(qq.question_id ORDER BY qq.position), '[]')
		          FROM bank.quiz_questions qq WHERE qq.quiz_id = t.quiz_id) AS question_ids
		  FROM bank.saved_tests t JOIN bank.quizzes z ON z.id = t.quiz_id
		 WHERE t.user_id = ? ORDER BY t.quiz_id`, userID))
}

// ForgetSavedTests removes the quizzes built for the user (their question
// lists and saved-test markers go with them; the questions stay).
func (s *Store) ForgetSavedTests(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.quizzes
		WHERE id IN (SELECT quiz_id FROM bank.saved_tests WHERE user_id = ?)`, userID).Error
}
