package app

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Submit scores the caller's attempt and returns it in full. answers holds
// final answers keyed by question id in decimal (nil: none); they win over
// the saved progress. flagged names the questions the learner flagged,
// kept with the attempt for its review (nil: the flags saved with the
// progress). A second submit changes nothing and returns the same result.
// A timed attempt submitted after its time (plus the grace) is scored on
// what was saved in time, as if auto-submitted at its deadline (its flags
// are kept).
func (s *Service) Submit(ctx context.Context, p auth.Principal, id int64, answers map[string]string, flagged []int64) (*Detail, error) {
	var given map[int64]string
	if len(answers) > 0 {
		given = make(map[int64]string, len(answers))
	}
	if err := checkAnswers(maps.All(answers), func(_ string, q int64, v string) { given[q] = v }); err != nil {
		return nil, err
	}
	var out *Detail
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.store.Attempt(ctx, p.UserID, id, db.ForUpdate)
		if err != nil {
			return attemptErr(err)
		}
		if a.CompletedAt == nil {
			late := s.expired(a)
			if late {
				given = nil
			}
			if err := s.finish(ctx, a, given, flagged, late); err != nil {
				return err
			}
		}
		out, err = s.detail(ctx, a)
		return err
	})
	return out, err
}

// expired reports whether a timed attempt's time (plus the grace) has run
// out while it is still incomplete.
func (s *Service) expired(a *store.Attempt) bool {
	return a.CompletedAt == nil && a.DeadlineAt != nil && s.now().After(a.DeadlineAt.Add(s.policy.TimerGrace))
}

// finish scores a locked, incomplete attempt inside the caller's
// transaction: grades every question (unanswered ones are wrong), records
// the score and the flags (those given, else the saved ones), clears the saved progress, updates the reminder
// schedule and announces the completion. auto marks an auto-submit,
// completed at the deadline. a is updated in place.
func (s *Service) finish(ctx context.Context, a *store.Attempt, given map[int64]string, flagged []int64, auto bool) error {
	qs, err := s.store.AttemptQuestions(ctx, a.ID)
	if err != nil {
		return err
	}
	saved, err := s.savedProgress(ctx, a)
	if err != nil {
		return err
	}
	answers, err := answersToScore(qs, saved, given)
	if err != nil {
		return err
	}
	if flagged == nil && saved != nil {
		flagged = saved.Flagged
	}
	flags, err := flagsOf(qs, flagged)
	if err != nil {
		return err
	}
	graded := make([]store.Graded, len(qs))
	outcomes := make([]outcome, len(qs))
	score := 0
	for i, q := range qs {
		g := store.Graded{Position: q.Position, Flagged: flags[q.QuestionID]}
		if ans, ok := answers[q.QuestionID]; ok {
			g.UserAnswer = &ans
			g.IsCorrect = IsCorrect(q.QuestionType, q.CorrectAnswer, ans)
		}
		if g.IsCorrect {
			score++
		}
		graded[i] = g
		outcomes[i] = outcome{questionID: q.QuestionID, correct: g.IsCorrect}
	}
	at := s.now().Truncate(time.Microsecond) // what Postgres keeps
	if auto && a.DeadlineAt != nil {
		at = *a.DeadlineAt
	}
	pct := Percentage(score, a.TotalQuestions)
	if err := s.store.SetAnswers(ctx, a.ID, graded); err != nil {
		return err
	}
	if err := s.store.Complete(ctx, a.ID, score, pct, at, auto); err != nil {
		return err
	}
	if err := s.store.Counted(ctx, a.ID); err != nil {
		return err
	}
	if err := s.store.DeleteProgressOfAttempt(ctx, a.ID); err != nil {
		return err
	}
	a.Score, a.Percentage, a.CompletedAt, a.AutoSubmitted = &score, &pct, &at, auto
	if err := s.updateSchedule(ctx, a, outcomes); err != nil {
		return err
	}
	if s.completions == nil {
		return nil
	}
	return s.completions.AttemptCompleted(ctx, Completion{AttemptID: a.ID, UserID: a.UserID, QuizID: a.QuizID,
		Mode: a.Mode, Score: score, TotalQuestions: a.TotalQuestions, Percentage: pct, CompletedAt: at,
		AutoSubmitted: auto})
}

// savedProgress reads the attempt's saved progress under lock, nil when
// there is none or it expired.
func (s *Service) savedProgress(ctx context.Context, a *store.Attempt) (*store.Progress, error) {
	p, err := s.store.ProgressOfAttempt(ctx, a.UserID, a.ID, db.ForUpdate)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	case !p.ExpiresAt.After(s.now()):
		return nil, nil
	}
	return p, nil
}

// answersToScore merges the saved progress (nil: none) with the answers
// given at submission, which win. Given answers must name questions of the
// attempt.
func answersToScore(qs []store.SatAnswer, saved *store.Progress, given map[int64]string) (map[int64]string, error) {
	inAttempt := make(map[int64]bool, len(qs))
	for _, q := range qs {
		inAttempt[q.QuestionID] = true
	}
	out := map[int64]string{}
	if saved != nil {
		for k, v := range saved.Answers {
			if id, err := strconv.ParseInt(k, 10, 64); err == nil && inAttempt[id] {
				out[id] = v
			}
		}
	}
	for id, v := range given {
		if !inAttempt[id] {
			// Naming no id: every question outside the attempt, whether the
			// bank has it or not, gets the same answer.
			return nil, apperr.Invalidf("answers", "answers name questions that are not in this attempt")
		}
		out[id] = v
	}
	return out, nil
}

// flagsOf checks that every flagged question is in the attempt.
func flagsOf(qs []store.SatAnswer, flagged []int64) (map[int64]bool, error) {
	in := make(map[int64]bool, len(qs))
	for _, q := range qs {
		in[q.QuestionID] = true
	}
	out := make(map[int64]bool, len(flagged))
	for _, id := range flagged {
		if !in[id] {
			return nil, apperr.Invalidf("flagged", "question %d is not in this attempt", id)
		}
		out[id] = true
	}
	return out, nil
}

// autoSubmit completes one attempt whose time ran out, in its own
// transaction; it reports whether it did (false when someone was first).
func (s *Service) autoSubmit(ctx context.Context, id int64) (bool, error) {
	done := false
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.store.AttemptByID(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil || !s.expired(a) {
			return err
		}
		done = true
		return s.finish(ctx, a, nil, nil, true)
	})
	return done && err == nil, err
}

// settle auto-submits the learner's attempts (of one quiz when quizID is
// set) whose time ran out, returning their ids.
func (s *Service) settle(ctx context.Context, userID int64, quizID *int64) ([]int64, error) {
	ids, err := s.store.Expired(ctx, &userID, quizID, s.policy.TimerGrace, settleBatch)
	if err != nil {
		return nil, err
	}
	var done []int64
	for _, id := range ids {
		ok, err := s.autoSubmit(ctx, id)
		if err != nil {
			return done, err
		}
		if ok {
			done = append(done, id)
		}
	}
	return done, nil
}

// settleBatch bounds the attempts one read auto-submits.
const settleBatch = 50
