package app

import (
	"context"
	"errors"
	"strings"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// PutNote writes the caller's note on a bank question they reach (one per
// question: a second PUT rewrites it); one they do not reach is the bank's
// 404 of a missing question.
func (s *Service) PutNote(ctx context.Context, p auth.Principal, questionID int64, body string) (*Note, error) {
	body = strings.TrimSpace(body)
	if body == "" {
		return nil, apperr.Invalidf("body", "the note is empty")
	}
	if err := s.ports.Bank.RequireQuestions(ctx, p, questionID); err != nil {
		return nil, err
	}
	n := &store.Note{UserID: p.UserID, QuestionID: questionID, Body: body}
	if err := s.db.Tx(ctx, func(ctx context.Context) error { return s.store.PutNote(ctx, n) }); err != nil {
		return nil, err
	}
	return n, nil
}

// Note returns the caller's note on a question.
func (s *Service) Note(ctx context.Context, p auth.Principal, questionID int64) (*Note, error) {
	n, err := s.store.Note(ctx, p.UserID, questionID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, apperr.NotFoundf("you have no note on this question")
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// Notes lists the caller's notes, most recently changed first (on the given
// questions when any are named).
func (s *Service) Notes(ctx context.Context, p auth.Principal, questionIDs []int64, limit, offset int) ([]Note, error) {
	return s.store.Notes(ctx, p.UserID, questionIDs, limit, offset)
}

// DeleteNote removes the caller's note on a question.
func (s *Service) DeleteNote(ctx context.Context, p auth.Principal, questionID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		ok, err := s.store.DeleteNote(ctx, p.UserID, questionID)
		if err == nil && !ok {
			return apperr.NotFoundf("you have no note on this question")
		}
		return err
	})
}
