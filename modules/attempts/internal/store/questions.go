package store

import (
	"context"

	"gorm.io/gorm/clause"

	"github.com/roundsedu/rounds/platform/db"
)

// SatQuestion is a row of attempts.sat_questions: a question's content as
// it was when sat.
type SatQuestion struct {
	ID                   int64 `gorm:"primaryKey"`
	SnapshotKey          string
	QuestionID           int64
	Version              int
	QuestionType         string
	QuestionText         string
	Options              StringList `gorm:"type:jsonb"`
	CorrectAnswer        string
	Explanation          string
	OptionExplanations   StringList `gorm:"type:jsonb"`
	KeyPoints            StringList `gorm:"type:jsonb"`
	AttendingTip         string
	ExplanationImagePath string
	ImagePath            string
}

// TableName places the row in the module's schema.
func (SatQuestion) TableName() string { return "attempts.sat_questions" }

// SatIDs maps snapshot keys to the ids of rows already stored.
func (s *Store) SatIDs(ctx context.Context, keys []string) (map[string]int64, error) {
	var rows []struct {
		ID          int64
		SnapshotKey string
	}
	err := s.db.Conn(ctx).Raw(`SELECT id, snapshot_key FROM attempts.sat_questions WHERE snapshot_key IN ?`,
		keys).Scan(&rows).Error
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.SnapshotKey] = r.ID
	}
	return out, err
}

// InsertSat stores snapshots in one statement; a snapshot another
// transaction stored first is skipped (read its id with SatIDs).
func (s *Store) InsertSat(ctx context.Context, rows []SatQuestion) error {
	return s.db.Conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Omit("ID").Create(&rows).Error
}

// SatAnswer is one question of an attempt as sat, with the learner's answer.
type SatAnswer struct {
	Position   int
	UserAnswer *string
	IsCorrect  *bool
	Flagged    bool
	SatQuestion
}

// AttemptQuestions lists an attempt's questions in the order sat.
func (s *Store) AttemptQuestions(ctx context.Context, attemptID int64) ([]SatAnswer, error) {
	var out []SatAnswer
	err := s.db.Conn(ctx).Raw(`SELECT a.position, a.user_answer, a.is_correct, a.flagged, q.*
		FROM attempts.answers a JOIN attempts.sat_questions q ON q.id = a.sat_question_id
		WHERE a.attempt_id = ? ORDER BY a.position`, attemptID).Scan(&out).Error
	return out, err
}

// CountInAttempt counts how many of the question ids the attempt contains.
func (s *Store) CountInAttempt(ctx context.Context, attemptID int64, questionIDs []int64) (int, error) {
	var n int
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM attempts.answers
		WHERE attempt_id = ? AND question_id = ANY(?::bigint[])`, attemptID, db.IDArray(questionIDs)).Scan(&n).Error
	return n, err
}

// Graded is the learner's answer to one position, whether it is right and
// whether they flagged it.
type Graded struct {
	Position   int
	UserAnswer *string
	IsCorrect  bool
	Flagged    bool
}

// SetAnswers writes every graded answer of an attempt in one statement.
func (s *Store) SetAnswers(ctx context.Context, attemptID int64, gs []Graded) error {
	if len(gs) == 0 {
		return nil
	}
	values := make([]any, 0, len(gs)*4+1)
	sql := `UPDATE attempts.answers a SET user_answer = v.ans, is_correct = v.ok, flagged = v.flag FROM (VALUES `
	for i, g := range gs {
		if i > 0 {
			sql += ", "
		}
		sql += "(?::int, ?::text, ?::boolean, ?::boolean)"
		values = append(values, g.Position, g.UserAnswer, g.IsCorrect, g.Flagged)
	}
	sql += `) AS v(pos, ans, ok, flag) WHERE a.attempt_id = ? AND a.position = v.pos`
	values = append(values, attemptID)
	return s.db.Conn(ctx).Exec(sql, values...).Error
}

// AttemptQuestionIDs lists an attempt's question ids in the order sat.
func (s *Store) AttemptQuestionIDs(ctx context.Context, attemptID int64) ([]int64, error) {
	ids := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT question_id FROM attempts.answers WHERE attempt_id = ? ORDER BY position`,
		attemptID).Scan(&ids).Error
	return ids, err
}

// AttemptShowsMedia reports whether a question of the attempt, as sat,
// shows the storage key as its image or, when answerSide, its explanation
// image.
func (s *Store) AttemptShowsMedia(ctx context.Context, attemptID int64, key string, answerSide bool) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM attempts.answers a
		JOIN attempts.sat_questions q ON q.id = a.sat_question_id
		WHERE a.attempt_id = ? AND (q.image_path = ? OR ? AND q.explanation_image_path = ?))`,
		attemptID, key, answerSide, key).Scan(&ok).Error
	return ok, err
}
