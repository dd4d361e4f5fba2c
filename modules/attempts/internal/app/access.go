package app

import (
	"context"
	"errors"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/db"
)

// AuthorizesAnswers reports whether the user's own attempt contains the
// question and has opened its answer side.
func (s *Service) AuthorizesAnswers(ctx context.Context, userID, attemptID, questionID int64) (bool, error) {
	a, err := s.store.Attempt(ctx, userID, attemptID, db.NoLock)
	if errors.Is(err, db.ErrNotFound) {
		return false, nil
	}
	if err != nil || !a.AnswersOpen() {
		return false, err
	}
	n, err := s.store.CountInAttempt(ctx, attemptID, []int64{questionID})
	return n == 1, err
}

// HasCompletedAttempt reports whether the user completed an attempt of the
// quiz.
func (s *Service) HasCompletedAttempt(ctx context.Context, userID, quizID int64) (bool, error) {
	return s.store.HasCompleted(ctx, userID, quizID)
}

// AuthorizedQuestions lists the questions of the user's own attempt whose
// answer side it has opened.
func (s *Service) AuthorizedQuestions(ctx context.Context, userID, attemptID int64) ([]int64, error) {
	a, err := s.store.Attempt(ctx, userID, attemptID, db.NoLock)
	if errors.Is(err, db.ErrNotFound) {
		return []int64{}, nil
	}
	if err != nil {
		return nil, err
	}
	if !a.AnswersOpen() {
		return []int64{}, nil
	}
	return s.store.AttemptQuestionIDs(ctx, attemptID)
}

// AuthorizesMedia reports whether the user's own attempt sat a question
// showing the storage key: its stem image from the start (a timed
// question must show its picture), its explanation image only once the
// attempt has opened the answer side.
func (s *Service) AuthorizesMedia(ctx context.Context, userID, attemptID int64, key string) (bool, error) {
	if key == "" {
		return false, nil
	}
	a, err := s.store.Attempt(ctx, userID, attemptID, db.NoLock)
	if errors.Is(err, db.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return s.store.AttemptShowsMedia(ctx, attemptID, key, a.AnswersOpen())
}

// CompletedSitting loads a completed attempt, whoever's it is, with its
// questions as sat and the answers given (db.ErrNotFound when it is
// missing or not completed).
func (s *Service) CompletedSitting(ctx context.Context, attemptID int64) (*Attempt, []store.SatAnswer, error) {
	a, err := s.store.CompletedAttempt(ctx, attemptID)
	if err != nil {
		return nil, nil, err
	}
	rows, err := s.store.AttemptQuestions(ctx, attemptID)
	return a, rows, err
}

// LastAnswers is how userID last met each of ids (a question never met in a
// completed attempt is absent): what custom blocks call used, incorrect
// and flagged.
func (s *Service) LastAnswers(ctx context.Context, userID int64, ids []int64) (map[int64]store.LastAnswer, error) {
	rows, err := s.store.LastAnswers(ctx, userID, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]store.LastAnswer, len(rows))
	for _, r := range rows {
		out[r.QuestionID] = r
	}
	return out, nil
}
