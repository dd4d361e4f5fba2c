package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
)

// Favorite is a question a user marked: the stored row as it is.
type Favorite = store.Favorite

// AddFavorite marks a question the caller reaches (reach.go); marking it
// again returns the same favourite. One they do not reach is the 404 of a
// missing question. The favourite stays listed if the question later
// leaves their reach, and never brings it back: it is no fact of reach.
func (s *Service) AddFavorite(ctx context.Context, p auth.Principal, questionID int64) (*Favorite, error) {
	var out *Favorite
	err := s.write(ctx, func(ctx context.Context) error {
		// Share-locked so a purge cannot slip in before the insert.
		if _, err := s.store.LockLive(ctx, []int64{questionID}); err != nil {
			return err
		}
		if err := s.RequireReach(ctx, p, questionID); err != nil {
			return err
		}
		f, err := s.store.AddFavorite(ctx, p.UserID, questionID)
		if err != nil {
			return err
		}
		out = f
		return nil
	})
	return out, err
}

// RemoveFavorite unmarks a question; unmarking one that is not marked
// changes nothing.
func (s *Service) RemoveFavorite(ctx context.Context, p auth.Principal, questionID int64) error {
	return s.store.RemoveFavorite(ctx, p.UserID, questionID)
}

// Favorites lists the caller's favourite live questions, newest first.
func (s *Service) Favorites(ctx context.Context, p auth.Principal) ([]int64, error) {
	return s.store.FavoriteIDs(ctx, p.UserID)
}

// ForgetUser removes a deleted account's favourites (idempotent: a second
// delivery finds nothing to remove).
func (s *Service) ForgetUser(ctx context.Context, userID int64) error {
	return s.store.ForgetFavorites(ctx, userID)
}
