package app

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/modules/identity"
)

// The reminder schedule is a Leitner system over the questions a learner
// missed. A miss (wrong or unanswered) puts the question in box 1, due one
// day after the attempt; each later right answer moves it up a box (due 3,
// 7, then 14 days after that attempt), and a right answer in the last box
// retires it. A right answer to a question not on the schedule changes
// nothing. Learners with reminders_disabled get no schedule changes at all.
var boxIntervals = []time.Duration{24 * time.Hour, 3 * 24 * time.Hour, 7 * 24 * time.Hour, 14 * 24 * time.Hour}

// outcome is how one question went in a completed attempt.
type outcome struct {
	questionID int64
	correct    bool
}

// Review is the schedule state of one question.
type Review struct {
	Box          int
	Misses       int
	DueAt        time.Time
	LastMissedAt time.Time
}

// NextReview moves a question's schedule after an answer at time at: prev is
// nil when the question is not scheduled. It returns the new state, or nil
// when the question is (or stays) off the schedule.
func NextReview(prev *Review, correct bool, at time.Time) *Review {
	if !correct {
		r := Review{Box: 1, Misses: 1, DueAt: at.Add(boxIntervals[0]), LastMissedAt: at}
		if prev != nil {
			r.Misses = prev.Misses + 1
		}
		return &r
	}
	if prev == nil || prev.Box >= len(boxIntervals) {
		return nil
	}
	r := *prev
	r.Box++
	r.DueAt = at.Add(boxIntervals[r.Box-1])
	return &r
}

// updateSchedule applies a completed attempt's outcomes to the learner's
// schedule inside the submit transaction.
func (s *Service) updateSchedule(ctx context.Context, a *store.Attempt, outcomes []outcome) error {
	on, err := s.remindersOn(ctx, a.UserID)
	if err != nil || !on {
		return err
	}
	ids := make([]int64, len(outcomes))
	for i, o := range outcomes {
		ids[i] = o.questionID
	}
	current, err := s.store.ReviewEntries(ctx, a.UserID, ids)
	if err != nil {
		return err
	}
	var put []store.ReviewEntry
	var retire []int64
	for _, o := range outcomes {
		var prev *Review
		if e, ok := current[o.questionID]; ok {
			prev = &Review{Box: e.Box, Misses: e.Misses, DueAt: e.DueAt, LastMissedAt: e.LastMissedAt}
		}
		next := NextReview(prev, o.correct, *a.CompletedAt)
		switch {
		case next != nil:
			put = append(put, store.ReviewEntry{UserID: a.UserID, QuestionID: o.questionID, AttemptID: a.ID,
				Box: next.Box, Misses: next.Misses, DueAt: next.DueAt, LastMissedAt: next.LastMissedAt})
		case prev != nil:
			retire = append(retire, o.questionID)
		}
	}
	// One order for every writer, so two submits of one learner never
	// deadlock on the same new entries.
	sort.Slice(put, func(i, j int) bool { return put[i].QuestionID < put[j].QuestionID })
	if err := s.store.PutReviewEntries(ctx, put); err != nil {
		return err
	}
	return s.store.DeleteReviewEntries(ctx, a.UserID, retire)
}

// remindersOn reads the learner's durable reminders_disabled setting. A
// learner whose account is gone gets no schedule.
func (s *Service) remindersOn(ctx context.Context, userID int64) (bool, error) {
	u, err := s.ports.Users.User(ctx, userID)
	if errors.Is(err, identity.ErrUserNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !u.RemindersDisabled, nil
}
