package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Reminder is one question on the learner's review schedule.
type Reminder struct {
	QuestionID   int64
	QuizID       int64
	AttemptID    int64
	QuestionText string // as last sat
	Box          int
	Misses       int
	DueAt        time.Time
	LastMissedAt time.Time
}

// Reminders is a page of the learner's schedule.
type Reminders struct {
	Disabled bool
	Total    int
	Due      int
	Items    []Reminder
}

// Reminders lists the caller's review schedule, soonest due first (only
// what is due now with dueOnly). With reminders disabled the list is empty.
func (s *Service) Reminders(ctx context.Context, p auth.Principal, dueOnly bool, limit, offset int) (*Reminders, error) {
	on, err := s.remindersOn(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	out := &Reminders{Disabled: !on, Items: []Reminder{}}
	if !on {
		return out, nil
	}
	if out.Total, out.Due, err = s.store.ReminderCounts(ctx, p.UserID); err != nil {
		return nil, err
	}
	rows, err := s.store.Reminders(ctx, p.UserID, dueOnly, limit, offset)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out.Items = append(out.Items, Reminder{QuestionID: r.QuestionID, QuizID: r.QuizID, AttemptID: r.AttemptID,
			QuestionText: r.QuestionText, Box: r.Box, Misses: r.Misses, DueAt: r.DueAt, LastMissedAt: r.LastMissedAt})
	}
	return out, nil
}

// DismissReminder takes a question off the caller's schedule.
func (s *Service) DismissReminder(ctx context.Context, p auth.Principal, questionID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		ok, err := s.store.DeleteReminder(ctx, p.UserID, questionID)
		if err == nil && !ok {
			return apperr.NotFoundf("this question is not on your review schedule")
		}
		return err
	})
}
