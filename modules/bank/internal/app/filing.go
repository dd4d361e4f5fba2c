package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// FileQuestion moves one live question into a question category, or out of
// every category when category is nil (moderators only).
func (s *Service) FileQuestion(ctx context.Context, p auth.Principal, id int64, category *int64) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators file questions")
	}
	return s.write(ctx, func(ctx context.Context) error {
		if _, err := s.liveQuestion(ctx, id, true); err != nil {
			return err
		}
		_, err := s.file(ctx, []int64{id}, category)
		return err
	})
}

// FileQuestions moves many live questions at once and reports how many
// moved (those already there, trashed or unknown are left alone).
func (s *Service) FileQuestions(ctx context.Context, p auth.Principal, ids []int64, category *int64) (int, error) {
	if !p.IsModerator() {
		return 0, apperr.Forbiddenf("only moderators file questions")
	}
	moved := 0
	err := s.write(ctx, func(ctx context.Context) error {
		n, err := s.file(ctx, ids, category)
		moved = n
		return err
	})
	return moved, err
}

// file refiles in the transaction on ctx and publishes each change; the
// category row is locked so it cannot be deleted under the move.
func (s *Service) file(ctx context.Context, ids []int64, category *int64) (int, error) {
	if category != nil {
		if _, err := s.store.Category(ctx, *category, true); err != nil {
			if db.IsNotFound(err) {
				return 0, apperr.NotFoundf("question category not found")
			}
			return 0, err
		}
	}
	rows, err := s.store.File(ctx, ids, category)
	if err != nil {
		return 0, err
	}
	for i := range rows {
		if err := s.publish(ctx, ChangeUpdated, &rows[i]); err != nil {
			return 0, err
		}
	}
	return len(rows), nil
}
