package app

import (
	"errors"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
)

// Attempt modes: how a quiz is sat (the bank's quiz modes, since an
// attempt defaults to its quiz's).
const (
	ModeTimed    = bank.ModeTimed    // answer side hidden until submission
	ModeLearning = bank.ModeLearning // study: answer side shown at once
)

// Attempt is one sitting of a quiz by a learner: the stored row itself,
// since the service needs exactly its fields (Completed and AnswersOpen
// live on it).
type Attempt = store.Attempt

// AnswerDetail is one question of an attempt as it was sat, with the
// learner's answer: the stored row, since the service shows exactly it.
type AnswerDetail = store.SatAnswer

// Detail is an attempt with its questions as sat. AnswersOpen says whether
// the answer side (correct answer, explanation, is_correct) may be shown.
type Detail struct {
	Attempt
	Answers []AnswerDetail
}

func toDetail(a *store.Attempt, rows []store.SatAnswer) *Detail {
	return &Detail{Attempt: *a, Answers: rows}
}

// errAttemptNotFound is the answer for a missing attempt or someone else's:
// the two look the same.
func errAttemptNotFound() error { return apperr.NotFoundf("attempt not found") }

// attemptErr maps the store's not-found to the 404 of an attempt.
func attemptErr(err error) error {
	if errors.Is(err, db.ErrNotFound) {
		return errAttemptNotFound()
	}
	return err
}
