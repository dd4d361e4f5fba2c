package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// ShareTitle checks p may share article id (one they can read that is
// published and not binned) and gives its title. An article has no answer
// side to hand out.
func (s *Service) ShareTitle(ctx context.Context, p auth.Principal, id int64, withAnswers bool) (string, error) {
	if withAnswers {
		return "", apperr.Invalidf("with_answers", "an article has no answers to share")
	}
	a, err := s.store.Article(ctx, id, db.NoLock)
	if a, _, err = s.readable(ctx, p, a, err); err != nil {
		return "", err
	}
	if !a.Live() {
		return "", apperr.Conflictf("only a published article can be shared")
	}
	return a.Title, nil
}

// Shared is a published article and its sections as a share link's
// visitor reads them (410 once it is no longer published).
func (s *Service) Shared(ctx context.Context, id int64) (*store.Article, []store.Section, error) {
	a, err := s.store.Article(ctx, id, db.NoLock)
	if db.IsNotFound(err) || err == nil && !a.Live() {
		return nil, nil, apperr.Gone("this article is no longer published")
	}
	if err != nil {
		return nil, nil, err
	}
	secs, err := s.store.Sections(ctx, id)
	return a, secs, err
}
