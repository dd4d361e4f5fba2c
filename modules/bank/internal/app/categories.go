package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// QuizCategory is a quiz category with the quizzes in it the caller sees.
// Kept apart from store.QuizCategoryCount on purpose: it is the flat wire
// shape (no created_at, which the spec's quiz category does not carry), so
// the handler converts it directly.
type QuizCategory struct {
	ID        int64
	Name      string
	QuizCount int
}

// QuizCategories lists quiz categories by name.
func (s *Service) QuizCategories(ctx context.Context, p auth.Principal) ([]QuizCategory, error) {
	rows, err := s.store.QuizCategories(ctx, !p.IsModerator())
	if err != nil {
		return nil, err
	}
	out := make([]QuizCategory, 0, len(rows))
	for _, r := range rows {
		out = append(out, QuizCategory{ID: r.ID, Name: r.Name, QuizCount: r.QuizCount})
	}
	return out, nil
}

// CreateQuizCategory adds a quiz category (moderators only; 409 when the
// name is taken, ignoring case and accents).
func (s *Service) CreateQuizCategory(ctx context.Context, p auth.Principal, name string) (*QuizCategory, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators manage categories")
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, apperr.Invalidf("name", "the name is empty")
	}
	c := &store.QuizCategory{Name: name}
	if err := s.store.InsertQuizCategory(ctx, c); err != nil {
		if db.IsUniqueViolation(err) {
			return nil, apperr.Conflictf("a quiz category named %q already exists", name)
		}
		return nil, err
	}
	return &QuizCategory{ID: c.ID, Name: c.Name}, nil
}

// DeleteQuizCategory removes a quiz category; its quizzes become
// unassigned (moderators only).
func (s *Service) DeleteQuizCategory(ctx context.Context, p auth.Principal, id int64) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators manage categories")
	}
	var ok bool
	err := s.write(ctx, func(ctx context.Context) (err error) {
		ok, err = s.store.DeleteQuizCategory(ctx, id)
		return err
	})
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFoundf("quiz category not found")
	}
	return nil
}
