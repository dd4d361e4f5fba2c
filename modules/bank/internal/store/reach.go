package store

import (
	"context"

	"github.com/roundsedu/rounds/platform/db"
)

// ReachFacts is what decides whether a caller reaches a question: where it
// is filed and the live quizzes that carry it. A favourite is no fact of
// reach (docs/decisions/bank.md), so it is not read.
type ReachFacts struct {
	ID                 int64
	QuestionCategoryID *int64
	InPublishedQuiz    bool // a live, published quiz carries it
	InGrantedQuiz      bool // a live quiz the caller holds a grant on carries it
}

// ReachFacts reads the facts for the live questions among ids (trashed and
// unknown ones are left out), for a caller holding grants on quizzes.
func (s *Store) ReachFacts(ctx context.Context, quizzes, ids []int64) ([]ReachFacts, error) {
	var out []ReachFacts
	err := s.db.Conn(ctx).Raw(`SELECT q.id, q.question_category_id,
			EXISTS (SELECT 1 FROM bank.quiz_questions qq JOIN bank.quizzes z ON z.id = qq.quiz_id
				AND z.deleted_at IS NULL AND z.is_published WHERE qq.question_id = q.id) AS in_published_quiz,
			EXISTS (SELECT 1 FROM bank.quiz_questions qq JOIN bank.quizzes z ON z.id = qq.quiz_id
				AND z.deleted_at IS NULL WHERE qq.question_id = q.id AND qq.quiz_id = ANY(?::bigint[])) AS in_granted_quiz
		FROM bank.questions q WHERE q.id = ANY(?::bigint[]) AND q.deleted_at IS NULL`,
		db.IDArray(quizzes), db.IDArray(ids)).Scan(&out).Error
	return out, err
}
