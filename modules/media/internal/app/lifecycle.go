package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/modules/media/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// TaskPurge is the scheduled purge of binned media.
const TaskPurge = "purge_trashed_media"

// Bin moves an asset to the bin (moderators): its figure lines leave every
// article, and the sections they were in are kept for a restore, in one
// transaction.
func (s *Service) Bin(ctx context.Context, p auth.Principal, id int64) (*Asset, error) {
	var out *Asset
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.DeletedAt != nil {
			return apperr.Conflictf("media asset %d is already in the bin", id)
		}
		figs, err := s.ports.Library.UnlinkFigure(ctx, p, a.Path, 0)
		if err != nil {
			return err
		}
		a.Places = a.Places[:0]
		for _, f := range figs {
			a.Places = append(a.Places, store.Place{ArticleID: f.ArticleID, SectionKey: f.SectionKey})
		}
		now := time.Now().UTC()
		a.DeletedAt, a.UpdatedAt = &now, now
		out = a
		return s.store.Save(ctx, a)
	})
	return out, err
}

// Unlink takes an asset the caller may use off one article they may edit
// (grant holders may only do this; the asset stays live).
func (s *Service) Unlink(ctx context.Context, p auth.Principal, id, articleID int64) error {
	a, err := s.Usable(ctx, p, id, db.NoLock)
	if err != nil {
		return err
	}
	_, err = s.ports.Library.UnlinkFigure(ctx, p, a.Path, articleID)
	return err
}

// Restore takes an asset out of the bin within the retention and appends
// its figure line at the end of every section it was in.
func (s *Service) Restore(ctx context.Context, p auth.Principal, id int64) (*Asset, error) {
	var out *Asset
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		switch {
		case a.DeletedAt == nil:
			return apperr.BadRequestf("media asset %d is not in the bin", id)
		case a.PurgedAt != nil:
			return errAssetNotFound()
		}
		var places []libraryFigure
		for _, pl := range a.Places {
			places = append(places, libraryFigure{ArticleID: pl.ArticleID, SectionKey: pl.SectionKey})
		}
		if err := s.ports.Library.RestoreFigure(ctx, p.UserID, places, a.Path, a.AltText); err != nil {
			return err
		}
		a.DeletedAt, a.Places, a.UpdatedAt = nil, nil, time.Now().UTC()
		out = a
		return s.store.Save(ctx, a)
	})
	return out, err
}

func (s *Service) locked(ctx context.Context, id int64) (*Asset, error) {
	a, err := s.store.Asset(ctx, id, db.ForUpdate)
	if db.IsNotFound(err) || (err == nil && a.PurgedAt != nil) {
		return nil, errAssetNotFound()
	}
	return a, err
}

// Purge removes the bytes (and derivatives) of assets binned more than the
// retention before now: the only scheduled job that destroys anything. The
// row stays, marked purged, so the log and a late restore can say what
// happened. Storage deletes run outside any transaction.
func (s *Service) Purge(ctx context.Context, now time.Time) (int, error) {
	cutoff := now.Add(-s.cfg.BinRetention)
	removed := 0
	for {
		batch, err := s.store.Expired(ctx, cutoff, 100)
		if err != nil || len(batch) == 0 {
			return removed, err
		}
		for _, a := range batch {
			for _, key := range []string{a.Path, thumbPrefix + "256/" + a.Path, thumbPrefix + "640/" + a.Path} {
				if err := s.files.Delete(ctx, key); err != nil {
					return removed, err
				}
			}
			if err := s.store.MarkPurged(ctx, a.ID, now); err != nil {
				return removed, err
			}
			removed++
			s.log.Info("purged binned media", "asset", a.ID, "path", a.Path, "binned_at", a.DeletedAt, "bytes", a.ByteSize)
		}
	}
}

// Update changes an asset's metadata (moderators; the figure rules apply).
func (s *Service) Update(ctx context.Context, id int64, m Meta) (*Asset, error) {
	if err := s.checkMeta(ctx, &m); err != nil {
		return nil, err
	}
	var out *Asset
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		fill(a, m)
		if len(a.Overlay) > 0 && noDerivatives.MatchString(a.License) {
			return apperr.Conflictf("licence %q forbids derivatives: remove the overlay first", a.License)
		}
		a.UpdatedAt = time.Now().UTC()
		out = a
		return s.store.Save(ctx, a)
	})
	return out, err
}

// MaxShapes bounds an overlay.
const MaxShapes = 200

// SetOverlay replaces an image's overlay shapes (moderators); refused when
// the licence forbids derivatives.
func (s *Service) SetOverlay(ctx context.Context, id int64, shapes []store.Shape) (*Asset, error) {
	if len(shapes) > MaxShapes {
		return nil, apperr.Invalidf("shapes", "an overlay holds at most %d shapes", MaxShapes)
	}
	var out *Asset
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.Kind != "image" {
			return apperr.Invalidf("shapes", "only images take an overlay")
		}
		if noDerivatives.MatchString(a.License) {
			return apperr.Forbiddenf("licence %q forbids derivatives: the overlay tool is blocked", a.License)
		}
		for i, sh := range shapes {
			if err := checkShape(i, sh, a); err != nil {
				return err
			}
		}
		a.Overlay, a.UpdatedAt = shapes, time.Now().UTC()
		out = a
		return s.store.Save(ctx, a)
	})
	return out, err
}

type libraryFigure = library.Figure

// Shape is one overlay annotation.
type Shape = store.Shape

// checkShape bounds one overlay shape to the image (when its size is known).
func checkShape(i int, sh store.Shape, a *Asset) error {
	field := fmt.Sprintf("shapes[%d]", i)
	inside := func(x, y float64) bool {
		return x >= 0 && y >= 0 && (a.Width == 0 || x <= float64(a.Width)) && (a.Height == 0 || y <= float64(a.Height))
	}
	if len(sh.Label) > 200 || strings.IndexByte(sh.Label, 0) >= 0 {
		return apperr.Invalidf(field+".label", "a label is at most 200 bytes of text")
	}
	switch sh.Kind {
	case "rect", "ellipse":
		if sh.W <= 0 || sh.H <= 0 || !inside(sh.X, sh.Y) || !inside(sh.X+sh.W, sh.Y+sh.H) && sh.Kind == "rect" {
			return apperr.Invalidf(field, "a %s needs a positive size inside the image", sh.Kind)
		}
	case "polygon":
		if len(sh.Points) < 3 || len(sh.Points) > 100 {
			return apperr.Invalidf(field+".points", "a polygon has 3 to 100 points")
		}
		for _, pt := range sh.Points {
			if !inside(pt[0], pt[1]) {
				return apperr.Invalidf(field+".points", "every point lies inside the image")
			}
		}
	default:
		return apperr.Invalidf(field+".kind", "a shape is a rect, an ellipse or a polygon")
	}
	return nil
}
