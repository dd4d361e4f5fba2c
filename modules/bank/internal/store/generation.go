package store

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/platform/db"
)

// Rated is a live question as a model reads it to write from it or rate
// it, with its difficulty (nil until rated).
type Rated struct {
	ID            int64
	QuestionText  string
	Options       Strings
	CorrectAnswer string
	Explanation   string
	Difficulty    *string
}

// RatedQuestions reads up to limit live questions by id: those among ids,
// or when categories is not nil those filed in them.
func (s *Store) RatedQuestions(ctx context.Context, ids, categories []int64, limit int) ([]Rated, error) {
	q := s.db.Conn(ctx).Table("bank.questions").
		Select("id, question_text, options, correct_answer, explanation, difficulty").Where("deleted_at IS NULL")
	if categories != nil {
		q = q.Where("question_category_id = ANY(?::bigint[])", db.IDArray(categories))
	} else {
		q = q.Where("id = ANY(?::bigint[])", db.IDArray(ids))
	}
	var out []Rated
	return out, q.Order("id").Limit(limit).Find(&out).Error
}

// SetDifficulty stores ids[i]'s difficulty levels[i] on the live ones and
// counts them. A rating is not an edit: the version and its history stay
// (the bank.quiz_contents trigger moves its quizzes' content version, so
// no cached quiz body shows an old level). Levels are the three plain
// words the column allows (the caller checks), so they go in an array
// literal as they are.
func (s *Store) SetDifficulty(ctx context.Context, ids []int64, levels []string) (int64, error) {
	res := s.db.Conn(ctx).Exec(`UPDATE bank.questions q SET difficulty = v.level
		FROM unnest(?::bigint[], ?::text[]) AS v(id, level)
		WHERE q.id = v.id AND q.deleted_at IS NULL`,
		db.IDArray(ids), "{"+strings.Join(levels, ",")+"}")
	return res.RowsAffected, res.Error
}
