package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// QuizForSitting returns a quiz p may sit (published, p moderates, or p's
// own saved test) with every live question and its answer side, in order.
// 404 otherwise. A saved test says so: it is sat in the mode it was built
// in (docs/decisions/bank.md). Outside a transaction the quiz's row and
// questions come from memory while its content version holds (quizRows,
// sittings): the questions are shared, read them only.
func (s *Service) QuizForSitting(ctx context.Context, p auth.Principal, id int64) (*QuizDetail, error) {
	load := func() (*store.QuizVersioned, error) { return s.store.QuizWithVersion(ctx, id) }
	var z *store.QuizVersioned
	var err error
	if db.InTx(ctx) {
		z, err = load()
	} else {
		z, err = s.quizRows.get(id, load)
	}
	if err != nil {
		return nil, notFoundOr(err, "quiz")
	}
	if z.DeletedAt != nil {
		return nil, apperr.NotFoundf("quiz not found")
	}
	if !z.IsPublished && !p.IsModerator() && (z.SavedBy == nil || *z.SavedBy != p.UserID) {
		return nil, apperr.NotFoundf("quiz not found")
	}
	qs, version, err := s.sittingQuestions(ctx, z)
	if err != nil {
		return nil, err
	}
	d := &QuizDetail{Quiz: z.QuizSummary, Questions: qs, AnswersShown: true, SavedTest: z.SavedBy != nil, Version: version}
	d.QuestionsCount = len(qs)
	return d, nil
}

// Filing is where a question is filed.
type Filing struct {
	CategoryID   *int64
	CategoryName string
}

// QuestionFilings tells where each live question among ids is filed.
func (s *Service) QuestionFilings(ctx context.Context, ids []int64) (map[int64]Filing, error) {
	rows, err := s.store.LiveQuestions(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]Filing, len(rows))
	for _, r := range rows {
		f := Filing{CategoryID: r.QuestionCategoryID}
		if r.QuestionCategoryName != nil {
			f.CategoryName = *r.QuestionCategoryName
		}
		out[r.ID] = f
	}
	return out, nil
}

// CreateQuestions files questions for another module (accepted drafts) in
// the transaction on ctx. Questions that break the bank's rules are a
// *RefusedQuestions naming each one's index, field and rule (its 422 names
// the fields questions[i].field); nothing is filed then.
func (s *Service) CreateQuestions(ctx context.Context, by int64, qs []NewQuestion) ([]int64, error) {
	ids, err := s.createQuestions(ctx, by, qs, "questions")
	if err != nil {
		return nil, refused(err, len(qs))
	}
	return ids, nil
}

// CheckCategory refuses (422 on field) a question category that does not
// exist: the one answer every module gives when a request names one.
func (s *Service) CheckCategory(ctx context.Context, field string, id int64) error {
	_, err := s.store.Category(ctx, id, false)
	if db.IsNotFound(err) {
		return apperr.Invalidf(field, "question category %d does not exist", id)
	}
	return err
}
