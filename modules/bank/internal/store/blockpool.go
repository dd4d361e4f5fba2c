package store

import (
	"context"

	"github.com/roundsedu/rounds/platform/db"
)

// blockPoolMax bounds the questions a custom block is drawn from (and so
// the reach check and the history read behind it).
const blockPoolMax = 5000

// BlockPool lists live questions a custom block may draw from, lowest id
// first: every one for a moderator (all), otherwise those in a live
// published quiz, in a live quiz of quizGrants, or filed under
// grantCategories; narrowed to the categories within when hasWithin.
func (s *Store) BlockPool(ctx context.Context, all bool, quizGrants, grantCategories, within []int64, hasWithin bool) ([]int64, error) {
	ids := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT q.id FROM bank.questions q
		WHERE q.deleted_at IS NULL
		  AND (NOT ? OR q.question_category_id = ANY(?::bigint[]))
		  AND (? OR q.question_category_id = ANY(?::bigint[])
		    OR EXISTS (SELECT 1 FROM bank.quiz_questions qq JOIN bank.quizzes z ON z.id = qq.quiz_id AND z.deleted_at IS NULL
		      WHERE qq.question_id = q.id AND (z.is_published OR z.id = ANY(?::bigint[]))))
		ORDER BY q.id LIMIT ?`,
		hasWithin, db.IDArray(within), all, db.IDArray(grantCategories), db.IDArray(quizGrants), blockPoolMax).Scan(&ids).Error
	return ids, err
}
