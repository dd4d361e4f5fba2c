package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/modules/bank"
)

// slowestPace is the longest time per question read as a learner's pace: a
// study attempt left open for a day says nothing about how long a question
// took.
const slowestPace = 30 * 60

// OwnAnswers lists the learner's latest answers to the questions among
// ids (nil: any), newest first, at most limit: completed attempts' and the
// saved ones of attempts not yet submitted. Right or wrong is told only
// where the answer side is open: a completed attempt's, or a running study
// attempt's (scored here as submission would); never for a question that
// sits in one of the learner's timed attempts not yet submitted, whatever
// attempt the answer comes from. Seconds is left out for a running attempt
// and for a pace slower than half an hour a question.
func (s *Service) OwnAnswers(ctx context.Context, userID int64, ids []int64, limit int) ([]store.OwnAnswer, error) {
	rows, err := s.store.OwnAnswers(ctx, userID, ids, limit, s.now())
	if err != nil || len(rows) == 0 {
		return rows, err
	}
	asked := make([]int64, len(rows))
	for i, r := range rows {
		asked[i] = r.QuestionID
	}
	closed, err := s.store.TimedOpen(ctx, userID, asked)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		r := &rows[i]
		if r.Running && r.Mode == bank.ModeLearning && r.Answer != nil {
			ok := IsCorrect(r.QuestionType, r.CorrectAnswer, *r.Answer)
			r.Correct = &ok
		}
		if closed[r.QuestionID] {
			r.Correct = nil
		}
		if r.Seconds != nil && *r.Seconds > slowestPace {
			r.Seconds = nil
		}
		r.QuestionType, r.CorrectAnswer = "", ""
	}
	return rows, nil
}

// SittingTimed reports whether the question sits in one of the learner's
// timed attempts not yet submitted.
func (s *Service) SittingTimed(ctx context.Context, userID, questionID int64) (bool, error) {
	closed, err := s.store.TimedOpen(ctx, userID, []int64{questionID})
	return closed[questionID], err
}

// WeakestCategories gives the learner's n weakest filed categories over
// their completed attempts, as the dashboard ranks them.
func (s *Service) WeakestCategories(ctx context.Context, userID int64, n int) ([]CategoryStat, error) {
	all, err := s.categories(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]CategoryStat, 0, n)
	for _, c := range all {
		if c.CategoryID != nil && len(out) < n {
			out = append(out, c)
		}
	}
	return out, nil
}
