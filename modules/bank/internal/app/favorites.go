package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Favorite is a question a user marked: the stored row as it is.
type Favorite = store.Favorite

// AddFavorite marks a live question for the caller; marking it again
// returns the same favourite.
func (s *Service) AddFavorite(ctx context.Context, p auth.Principal, questionID int64) (*Favorite, error) {
	var out *Favorite
	err := s.write(ctx, func(ctx context.Context) error {
		// Share-locked so a purge cannot slip in before the insert.
		live, err := s.store.LockLive(ctx, []int64{questionID})
		if err != nil {
			return err
		}
		if len(live) == 0 {
			return apperr.NotFoundf("question not found")
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
