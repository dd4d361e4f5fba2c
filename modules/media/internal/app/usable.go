package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// errAssetNotFound is the one answer for an asset a caller may not have:
// missing, binned, purged or hidden from them all read alike.
func errAssetNotFound() error { return apperr.NotFoundf("media asset not found") }

// Usable loads an asset p may use by its id: place on a section, show on
// a card, unlink, pack into an export. An asset is usable by whoever may
// already see it (sees: moderators, its uploader, readers of a place that
// shows it); a binned or purged asset by nobody. Everything else is the
// 404 of an asset that does not exist, so ids cannot be probed and no
// path turns an asset's id into its bytes for someone /uploads refuses.
// lock is the row lock to take (inside a transaction).
func (s *Service) Usable(ctx context.Context, p auth.Principal, id int64, lock db.Lock) (*Asset, error) {
	a, err := s.store.Asset(ctx, id, lock)
	if db.IsNotFound(err) || (err == nil && (a.DeletedAt != nil || a.PurgedAt != nil)) {
		return nil, errAssetNotFound()
	}
	if err != nil {
		return nil, err
	}
	ok, err := s.sees(ctx, p, a.Path, a)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errAssetNotFound()
	}
	return a, nil
}

// sees decides whether p may see a stored file outside an attempt, for
// GET /uploads and Usable alike: moderators and an asset's uploader see
// it, and so does anyone a module shows it to (showsTo: an article they
// may read, a deck they may study, a question whose detail shows it to
// them). a is nil for a file that is not an asset.
func (s *Service) sees(ctx context.Context, p auth.Principal, key string, a *Asset) (bool, error) {
	if p.IsModerator() || (a != nil && a.CreatedBy == p.UserID) {
		return true, nil
	}
	return s.showsTo(ctx, p, key, a)
}
