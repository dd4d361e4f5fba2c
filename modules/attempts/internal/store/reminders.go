package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// ReviewEntry is a row of attempts.review_schedule.
type ReviewEntry struct {
	UserID       int64 `gorm:"primaryKey"`
	QuestionID   int64 `gorm:"primaryKey"`
	AttemptID    int64
	Box          int
	Misses       int
	DueAt        time.Time
	LastMissedAt time.Time
	UpdatedAt    time.Time
}

// TableName places the row in the module's schema.
func (ReviewEntry) TableName() string { return "attempts.review_schedule" }

// ReviewEntries loads and locks the learner's entries for the questions.
func (s *Store) ReviewEntries(ctx context.Context, userID int64, questionIDs []int64) (map[int64]ReviewEntry, error) {
	var rows []ReviewEntry
	err := s.db.Conn(ctx).Raw(`SELECT * FROM attempts.review_schedule
		WHERE user_id = ? AND question_id = ANY(?::bigint[]) ORDER BY question_id FOR UPDATE`,
		userID, db.IDArray(questionIDs)).Scan(&rows).Error
	out := make(map[int64]ReviewEntry, len(rows))
	for _, r := range rows {
		out[r.QuestionID] = r
	}
	return out, err
}

// PutReviewEntries writes entries in one statement (insert or replace).
func (s *Store) PutReviewEntries(ctx context.Context, rows []ReviewEntry) error {
	if len(rows) == 0 {
		return nil
	}
	values := make([]any, 0, len(rows)*7)
	sql := `INSERT INTO attempts.review_schedule
		(user_id, question_id, attempt_id, box, misses, due_at, last_missed_at, updated_at) VALUES `
	for i, r := range rows {
		if i > 0 {
			sql += ", "
		}
		sql += "(?, ?, ?, ?, ?, ?, ?, now())"
		values = append(values, r.UserID, r.QuestionID, r.AttemptID, r.Box, r.Misses, r.DueAt, r.LastMissedAt)
	}
	sql += ` ON CONFLICT (user_id, question_id) DO UPDATE SET attempt_id = EXCLUDED.attempt_id,
		box = EXCLUDED.box, misses = EXCLUDED.misses, due_at = EXCLUDED.due_at,
		last_missed_at = EXCLUDED.last_missed_at, updated_at = now()`
	return s.db.Conn(ctx).Exec(sql, values...).Error
}

// DeleteReviewEntries removes the learner's entries for the questions.
func (s *Store) DeleteReviewEntries(ctx context.Context, userID int64, questionIDs []int64) error {
	if len(questionIDs) == 0 {
		return nil
	}
	return s.db.Conn(ctx).Exec(`DELETE FROM attempts.review_schedule
		WHERE user_id = ? AND question_id = ANY(?::bigint[])`, userID, db.IDArray(questionIDs)).Error
}

// Reminder is a schedule entry with the question as last sat.
type Reminder struct {
	ReviewEntry
	QuizID       int64
	QuestionText string
}

// Reminders lists the learner's schedule, soonest due first; with dueOnly,
// only entries due by now.
func (s *Store) Reminders(ctx context.Context, userID int64, dueOnly bool, limit, offset int) ([]Reminder, error) {
	var out []Reminder
	err := s.db.Conn(ctx).Raw(`SELECT r.*, t.quiz_id, q.question_text
		FROM attempts.review_schedule r
		JOIN attempts.attempts t ON t.id = r.attempt_id
		JOIN attempts.answers a ON a.attempt_id = r.attempt_id AND a.question_id = r.question_id
		JOIN attempts.sat_questions q ON q.id = a.sat_question_id
		WHERE r.user_id = ? AND (NOT ? OR r.due_at <= now())
		ORDER BY r.due_at, r.question_id LIMIT ? OFFSET ?`, userID, dueOnly, limit, offset).Scan(&out).Error
	return out, err
}

// ReminderCounts counts the learner's entries and those due by now.
func (s *Store) ReminderCounts(ctx context.Context, userID int64) (total, due int, err error) {
	var c struct{ Total, Due int }
	err = s.db.Conn(ctx).Raw(`SELECT count(*) AS total, count(*) FILTER (WHERE due_at <= now()) AS due
		FROM attempts.review_schedule WHERE user_id = ?`, userID).Scan(&c).Error
	return c.Total, c.Due, err
}

// DeleteReminder removes one entry, reporting whether there was one.
func (s *Store) DeleteReminder(ctx context.Context, userID, questionID int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM attempts.review_schedule WHERE user_id = ? AND question_id = ?`,
		userID, questionID)
	return res.RowsAffected > 0, res.Error
}
