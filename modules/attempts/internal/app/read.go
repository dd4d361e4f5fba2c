package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Detail returns one of the caller's attempts with its questions as sat.
func (s *Service) Detail(ctx context.Context, p auth.Principal, id int64) (*Detail, error) {
	a, err := s.store.Attempt(ctx, p.UserID, id, db.NoLock)
	if err != nil {
		return nil, attemptErr(err)
	}
	return s.detail(ctx, a)
}

func (s *Service) detail(ctx context.Context, a *store.Attempt) (*Detail, error) {
	qs, err := s.store.AttemptQuestions(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	return toDetail(a, qs), nil
}

// Attempts lists the caller's attempts newest first (of one quiz when
// quizID is set), complete or not.
func (s *Service) Attempts(ctx context.Context, p auth.Principal, quizID *int64, limit, offset int) ([]Attempt, error) {
	return s.store.Attempts(ctx, p.UserID, quizID, limit, offset)
}

// OpenAttempt is an incomplete attempt with what its saved progress says
// (nil fields when nothing is saved): the row the store reads.
type OpenAttempt = store.OpenAttempt

// InProgress lists the caller's incomplete attempts, most recent first. A
// timed attempt whose time ran out is auto-submitted first, so it is not
// listed.
func (s *Service) InProgress(ctx context.Context, p auth.Principal, limit, offset int) ([]OpenAttempt, error) {
	if _, err := s.settle(ctx, p.UserID, nil); err != nil {
		return nil, err
	}
	return s.store.OpenAttempts(ctx, p.UserID, limit, offset)
}

// OpenAttemptOf returns the caller's attempt when it is an incomplete
// attempt of the quiz, and nil otherwise (completed, another quiz, or a
// timed attempt whose time ran out, which is auto-submitted). Someone
// else's attempt is 404.
func (s *Service) OpenAttemptOf(ctx context.Context, p auth.Principal, id, quizID int64) (*Attempt, error) {
	a, err := s.store.Attempt(ctx, p.UserID, id, db.NoLock)
	if err != nil {
		return nil, attemptErr(err)
	}
	if a.QuizID != quizID || a.CompletedAt != nil {
		return nil, nil
	}
	if s.expired(a) {
		_, err := s.autoSubmit(ctx, a.ID)
		return nil, err
	}
	return a, nil
}

// Delete removes one of the caller's attempts with its answers, saved
// progress and the reminder entries it last moved, and takes it out of
// the learner's tallies. The attempt is locked first, so a submit racing
// the delete is either counted and taken out or never counted.
func (s *Service) Delete(ctx context.Context, p auth.Principal, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		if _, err := s.store.Attempt(ctx, p.UserID, id, db.ForUpdate); err != nil {
			return attemptErr(err)
		}
		if err := s.store.Uncounted(ctx, id); err != nil {
			return err
		}
		return s.store.DeleteAttempt(ctx, p.UserID, id)
	})
}

// QuizHistory is the caller's record on one quiz with its recent attempts.
type QuizHistory struct {
	store.QuizHistory
	Recent []Attempt
}

// historyRecent is how many recent attempts each quiz of the history shows.
const historyRecent = 10

// History lists the caller's record per quiz, most recently sat first, each
// with its latest attempts (two queries for the whole page).
func (s *Service) History(ctx context.Context, p auth.Principal, limit, offset int) ([]QuizHistory, error) {
	rows, err := s.store.History(ctx, p.UserID, limit, offset)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.QuizID
	}
	recent, err := s.store.RecentOfQuizzes(ctx, p.UserID, ids, historyRecent)
	if err != nil {
		return nil, err
	}
	byQuiz := map[int64][]Attempt{}
	for _, a := range recent {
		byQuiz[a.QuizID] = append(byQuiz[a.QuizID], a)
	}
	out := make([]QuizHistory, len(rows))
	for i, r := range rows {
		r.BestPercentage, r.AveragePercentage = roundPtr(r.BestPercentage), roundPtr(r.AveragePercentage)
		out[i] = QuizHistory{QuizHistory: r, Recent: byQuiz[r.QuizID]}
	}
	return out, nil
}
