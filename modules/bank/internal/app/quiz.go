package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Quiz modes.
const (
	ModeTimed    = "timed"
	ModeLearning = "learning"
)

// Quiz is a quiz as the service answers it: the stored row with its live
// question count and category name. One type from the store up: the
// service adds nothing to it.
type Quiz = store.QuizSummary

// QuizDetail is a quiz with its live questions in order. AnswersShown says
// whether the questions carry their answer side; Version is the quiz's
// content version the questions were read at (0 when there are none).
type QuizDetail struct {
	Quiz
	Questions    []*Question
	AnswersShown bool
	SavedTest    bool // a learner's saved test (set by QuizForSitting only)
	Version      int64
}

// NewQuiz is a quiz made from bank questions.
type NewQuiz struct {
	Title            string
	Mode             string
	TimeLimitMinutes *int
	QuestionIDs      []int64
	CategoryID       *int64 // a quiz category
}

// CreateQuiz makes a quiz referencing existing live questions, in the
// order given (moderators only). It starts unpublished.
func (s *Service) CreateQuiz(ctx context.Context, p auth.Principal, in NewQuiz) (*Quiz, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators create quizzes")
	}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" {
		return nil, apperr.Invalidf("title", "the title is empty")
	}
	ids := dedupe(in.QuestionIDs)
	var out *Quiz
	err := s.write(ctx, func(ctx context.Context) error {
		live, err := s.store.LockLive(ctx, ids)
		if err != nil {
			return err
		}
		if missing := without(ids, live); len(missing) > 0 {
			return apperr.Invalidf("question_ids", "these questions are not in the bank (missing or trashed): %s",
				joinIDs(missing))
		}
		if in.CategoryID != nil {
			ok, err := s.store.QuizCategoryExists(ctx, *in.CategoryID)
			if err != nil {
				return err
			}
			if !ok {
				return apperr.Invalidf("category_id", "no such quiz category")
			}
		}
		out, err = s.insertQuiz(ctx, p.UserID, in, ids)
		return err
	})
	return out, err
}

func (s *Service) insertQuiz(ctx context.Context, by int64, in NewQuiz, questionIDs []int64) (*Quiz, error) {
	if in.Mode == "" {
		in.Mode = ModeTimed
	}
	z := &store.Quiz{UserID: by, Title: in.Title, Mode: in.Mode, TimeLimitMinutes: in.TimeLimitMinutes,
		CategoryID: in.CategoryID}
	if err := s.store.InsertQuiz(ctx, z); err != nil {
		return nil, err
	}
	if err := s.store.LinkQuestions(ctx, z.ID, questionIDs); err != nil {
		return nil, err
	}
	row, err := s.store.Quiz(ctx, z.ID, false)
	if err != nil {
		return nil, err
	}
	return row, nil
}

// Quizzes lists live quizzes, newest first: moderators see all, everyone
// else the published ones.
func (s *Service) Quizzes(ctx context.Context, p auth.Principal, limit, offset int) ([]Quiz, error) {
	rows, err := s.store.Quizzes(ctx, store.QuizFilter{PublishedOnly: !p.IsModerator(), Limit: limit, Offset: offset})
	return rows, err
}

// QuizTrash lists trashed quizzes (moderators only).
func (s *Service) QuizTrash(ctx context.Context, p auth.Principal, limit, offset int) ([]Quiz, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators see the trash")
	}
	rows, err := s.store.Quizzes(ctx, store.QuizFilter{Trashed: true, Limit: limit, Offset: offset})
	return rows, err
}

// CountQuizzes counts the quizzes p can see.
func (s *Service) CountQuizzes(ctx context.Context, p auth.Principal) (int, error) {
	return s.store.CountQuizzes(ctx, !p.IsModerator())
}

// liveQuiz loads a quiz that is not in the trash (404 otherwise).
func (s *Service) liveQuiz(ctx context.Context, id int64, lock bool) (*store.QuizSummary, error) {
	z, err := s.store.Quiz(ctx, id, lock)
	if err != nil {
		return nil, notFoundOr(err, "quiz")
	}
	if z.DeletedAt != nil {
		return nil, apperr.NotFoundf("quiz not found")
	}
	return z, nil
}

// visibleQuiz loads a live quiz p may open: published, or p moderates, or
// p holds a grant on it. Anything else is 404, as if it did not exist.
func (s *Service) visibleQuiz(ctx context.Context, p auth.Principal, id int64) (*store.QuizSummary, error) {
	z, err := s.liveQuiz(ctx, id, false)
	if err != nil {
		return nil, err
	}
	return z, s.mayOpen(ctx, p, z)
}

// mayOpen refuses, as a 404, a quiz p may not open.
func (s *Service) mayOpen(ctx context.Context, p auth.Principal, z *store.QuizSummary) error {
	if z.DeletedAt != nil {
		return apperr.NotFoundf("quiz not found")
	}
	if z.IsPublished || p.IsModerator() {
		return nil
	}
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return err
	}
	if slices.Contains(v.quizGrants, z.ID) {
		return nil
	}
	return apperr.NotFoundf("quiz not found")
}

// detail assembles a quiz with its live questions, answers in or out.
func (s *Service) detail(ctx context.Context, z *store.QuizSummary, answers bool) (*QuizDetail, error) {
	rows, version, err := s.store.QuizQuestions(ctx, z.ID)
	if err != nil {
		return nil, err
	}
	d := &QuizDetail{Quiz: *z, AnswersShown: answers, Questions: make([]*Question, 0, len(rows)), Version: version}
	d.QuestionsCount = len(rows)
	for i := range rows {
		q := toQuestion(&rows[i])
		q.AnswersShown = true
		if !answers {
			q.redact()
		}
		d.Questions = append(d.Questions, q)
	}
	return d, nil
}

// OpenedQuiz is a quiz a caller may open, before its questions are read:
// whether they carry the answer side, and the version of what they show
// (equal versions and the same AnswersShown give the same questions, for
// any caller: the list is cacheable by them).
type OpenedQuiz struct {
	Quiz
	AnswersShown bool
	Version      int64
}

// OpenQuiz checks p may open a quiz (one query): a timed quiz hides the
// answer side, a learning quiz shows it, and study forces it in (a study
// session of any quiz). A learner's saved test opens to them, the one
// who sits it (docs/decisions/bank.md).
func (s *Service) OpenQuiz(ctx context.Context, p auth.Principal, id int64, study bool) (*OpenedQuiz, error) {
	z, err := s.quizRows.get(id, func() (*store.QuizVersioned, error) { return s.store.QuizWithVersion(ctx, id) })
	if err != nil {
		return nil, notFoundOr(err, "quiz")
	}
	answers := study || z.Mode == ModeLearning
	if z.SavedBy != nil && *z.SavedBy == p.UserID && !p.IsModerator() {
		if z.DeletedAt != nil {
			return nil, apperr.NotFoundf("quiz not found")
		}
		// Its own mode's answer side, whatever study asks: a timed saved
		// test is an exam paper or a timed block being sat.
		answers = z.Mode == ModeLearning
	} else if err := s.mayOpen(ctx, p, &z.QuizSummary); err != nil {
		return nil, err
	}
	return &OpenedQuiz{Quiz: z.QuizSummary, AnswersShown: answers, Version: z.Version}, nil
}

// OpenedQuestions reads an opened quiz's live questions, redacted as it
// says, and the content version they were read at (it may be newer than
// the opened row's).
func (s *Service) OpenedQuestions(ctx context.Context, z *OpenedQuiz) ([]*Question, int64, error) {
	d, err := s.detail(ctx, &z.Quiz, z.AnswersShown)
	if err != nil {
		return nil, 0, err
	}
	return d.Questions, d.Version, nil
}

// ShuffleQuiz returns the timed detail with questions (and, when asked,
// options) in a fresh random order. Nothing is stored.
func (s *Service) ShuffleQuiz(ctx context.Context, p auth.Principal, id int64, options bool) (*QuizDetail, error) {
	z, err := s.visibleQuiz(ctx, p, id)
	if err != nil {
		return nil, err
	}
	d, err := s.detail(ctx, z, false)
	if err != nil {
		return nil, err
	}
	shuffle(d.Questions)
	if options {
		for _, q := range d.Questions {
			shuffle(q.Options)
		}
	}
	return d, nil
}

// ReviewQuiz shows a quiz with every answer and explanation, to a
// moderator or to a learner with a completed attempt of it. A learner
// without one is told to complete an attempt only of a quiz they may open;
// any other quiz (unpublished, another learner's saved test) is the 404
// of one that does not exist.
func (s *Service) ReviewQuiz(ctx context.Context, p auth.Principal, id int64) (*QuizDetail, error) {
	z, err := s.liveQuiz(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !p.IsModerator() {
		done, err := s.ports.Attempts.HasCompletedAttempt(ctx, p.UserID, id)
		if err != nil {
			return nil, err
		}
		if !done {
			if _, err := s.OpenQuiz(ctx, p, id, false); err != nil {
				return nil, err
			}
			return nil, apperr.Forbiddenf("the review opens once you have completed an attempt of this quiz")
		}
	}
	return s.detail(ctx, z, true)
}

// QuizQuestions lists a quiz's live questions with their answers
// (moderators only).
func (s *Service) QuizQuestions(ctx context.Context, p auth.Principal, id int64) ([]*Question, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators manage quiz questions")
	}
	z, err := s.liveQuiz(ctx, id, false)
	if err != nil {
		return nil, err
	}
	d, err := s.detail(ctx, z, true)
	if err != nil {
		return nil, err
	}
	return d.Questions, nil
}

// UpdateQuizQuestion edits a question through one of its quizzes
// (moderators only). The edit is the question's own, so every quiz
// referencing it sees it; rule failures answer 400. New options drop the
// old per-option explanations (this route cannot send new ones; the
// version snapshot keeps them).
func (s *Service) UpdateQuizQuestion(ctx context.Context, p auth.Principal, quizID, questionID int64, pt Patch) (*Question, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators manage quiz questions")
	}
	pt.StaleExplanations = true
	return s.edit(ctx, p, questionID, badRequest, func(ctx context.Context, q *store.QuestionWithFiling) (Content, error) {
		if err := s.checkLinked(ctx, quizID, questionID, false); err != nil {
			return Content{}, err
		}
		return pt.onto(contentOf(&q.Question)), nil
	})
}

// checkLinked loads the live quiz (locked when lock) and checks the
// question is linked to it: 404 otherwise.
func (s *Service) checkLinked(ctx context.Context, quizID, questionID int64, lock bool) error {
	if _, err := s.liveQuiz(ctx, quizID, lock); err != nil {
		return err
	}
	ok, err := s.store.Linked(ctx, quizID, questionID)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFoundf("the question is not in this quiz")
	}
	return nil
}

// RemoveQuizQuestion takes a question out of a quiz (moderators only): only
// the link goes when another quiz also uses the question; otherwise the
// question itself goes to the trash (the link stays, so restoring the
// question puts it back in this quiz).
func (s *Service) RemoveQuizQuestion(ctx context.Context, p auth.Principal, quizID, questionID int64) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators manage quiz questions")
	}
	return s.write(ctx, func(ctx context.Context) error {
		if err := s.checkLinked(ctx, quizID, questionID, true); err != nil {
			return err
		}
		if _, err := s.liveQuestion(ctx, questionID, true); err != nil {
			return err
		}
		others, err := s.store.OtherLinks(ctx, quizID, questionID)
		if err != nil {
			return err
		}
		if others > 0 {
			return s.store.Unlink(ctx, quizID, questionID)
		}
		return s.trash(ctx, questionID)
	})
}

// RenameQuiz sets a quiz's title (moderators only).
func (s *Service) RenameQuiz(ctx context.Context, p auth.Principal, id int64, title string) (*Quiz, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return nil, apperr.Invalidf("title", "the title is empty")
	}
	return s.changeQuiz(ctx, p, id, func(ctx context.Context, z *store.QuizSummary) error {
		return s.store.SetQuizTitle(ctx, id, title)
	})
}

// PublishQuiz shows a quiz to learners or hides it (moderators only).
func (s *Service) PublishQuiz(ctx context.Context, p auth.Principal, id int64, published bool) (*Quiz, error) {
	return s.changeQuiz(ctx, p, id, func(ctx context.Context, z *store.QuizSummary) error {
		return s.store.SetQuizPublished(ctx, id, published)
	})
}

// TrashQuiz moves a live quiz to the trash (moderators only).
func (s *Service) TrashQuiz(ctx context.Context, p auth.Principal, id int64) error {
	_, err := s.changeQuiz(ctx, p, id, func(ctx context.Context, z *store.QuizSummary) error {
		return s.store.SetQuizDeleted(ctx, id, true)
	})
	return err
}

// changeQuiz locks a live quiz, applies fn and returns the quiz after it.
func (s *Service) changeQuiz(ctx context.Context, p auth.Principal, id int64,
	fn func(ctx context.Context, z *store.QuizSummary) error) (*Quiz, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators manage quizzes")
	}
	var out *Quiz
	err := s.write(ctx, func(ctx context.Context) error {
		z, err := s.liveQuiz(ctx, id, true)
		if err != nil {
			return err
		}
		if err := fn(ctx, z); err != nil {
			return err
		}
		row, err := s.store.Quiz(ctx, id, false)
		if err != nil {
			return err
		}
		out = row
		return nil
	})
	return out, err
}

// trashedQuiz locks a quiz that must be in the trash: 404 when missing,
// 400 when live.
func (s *Service) trashedQuiz(ctx context.Context, id int64, refusal string) error {
	z, err := s.store.Quiz(ctx, id, true)
	if err != nil {
		return notFoundOr(err, "quiz")
	}
	if z.DeletedAt == nil {
		return apperr.BadRequestf("%s", refusal)
	}
	return nil
}

// RestoreQuiz brings a quiz back from the trash (moderators only).
func (s *Service) RestoreQuiz(ctx context.Context, p auth.Principal, id int64) (*Quiz, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators manage quizzes")
	}
	var out *Quiz
	err := s.write(ctx, func(ctx context.Context) error {
		if err := s.trashedQuiz(ctx, id, "the quiz is not in the trash"); err != nil {
			return err
		}
		if err := s.store.SetQuizDeleted(ctx, id, false); err != nil {
			return err
		}
		row, err := s.store.Quiz(ctx, id, false)
		if err == nil {
			out = row
		}
		return err
	})
	return out, err
}

// PurgeQuiz removes a trashed quiz for good (moderators only; 400 unless it
// is in the trash). Its questions stay in the bank: those only it used are
// orphaned to the bank, not deleted.
func (s *Service) PurgeQuiz(ctx context.Context, p auth.Principal, id int64) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators manage quizzes")
	}
	return s.write(ctx, func(ctx context.Context) error {
		if err := s.trashedQuiz(ctx, id, "only a quiz in the trash can be deleted permanently: delete it first"); err != nil {
			return err
		}
		return s.store.PurgeQuiz(ctx, id)
	})
}

// SetQuizCategory files a quiz under a quiz category, or none when nil
// (moderators only).
func (s *Service) SetQuizCategory(ctx context.Context, p auth.Principal, id int64, category *int64) error {
	_, err := s.changeQuiz(ctx, p, id, func(ctx context.Context, z *store.QuizSummary) error {
		if category != nil {
			ok, err := s.store.QuizCategoryExists(ctx, *category)
			if err != nil {
				return err
			}
			if !ok {
				return apperr.NotFoundf("quiz category not found")
			}
		}
		return s.store.SetQuizCategory(ctx, id, category)
	})
	return err
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func without(all, have []int64) []int64 {
	present := make(map[int64]bool, len(have))
	for _, id := range have {
		present[id] = true
	}
	var out []int64
	for _, id := range all {
		if !present[id] {
			out = append(out, id)
		}
	}
	return out
}

// shuffle puts items in a fresh random order.
func shuffle[T any](items []T) {
	rand.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ", ")
}
