package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Mask is the overlay shape an image occlusion card hides.
type Mask = store.Mask

// Picture is what media says of a card's picture: its overlay shapes in
// order (none for a plain picture).
type Picture struct{ Shapes []Mask }

// Occlusion modes of an image card.
const (
	// OcclusionEach makes one card per overlay shape, hiding that shape
	// (the default when the picture has an overlay).
	OcclusionEach = "each"
	// OcclusionNone makes one card showing the whole picture.
	OcclusionNone = "none"
)

// imageRows makes an image card's rows: one per overlay shape, each hiding
// its shape and answered by the shape's label (the card's back for a shape
// without one); with no overlay, or occlusion "none", one card with the
// whole picture answered by the back.
func imageRows(base Card, pic *Picture, occlusion string) ([]Card, error) {
	switch occlusion {
	case "", OcclusionEach, OcclusionNone:
	default:
		return nil, apperr.Invalidf("body.occlusion", "occlusion must be each or none")
	}
	if occlusion == OcclusionNone || len(pic.Shapes) == 0 {
		if occlusion == OcclusionEach {
			return nil, apperr.Invalidf("body.occlusion", "picture %d has no overlay shapes to hide", *base.PictureID)
		}
		if base.Back == "" {
			return nil, apperr.Invalidf("body.back", "an image card without masks needs a back")
		}
		return []Card{base}, nil
	}
	out := make([]Card, 0, len(pic.Shapes))
	for i := range pic.Shapes {
		c := base
		m := pic.Shapes[i]
		c.Mask = &m
		if label := strings.TrimSpace(m.Label); label != "" {
			c.Back = label
		} else if c.Back == "" {
			return nil, apperr.Invalidf("body.back", "shape %d of picture %d has no label: give the card a back to answer it", i+1, *base.PictureID)
		}
		out = append(out, c)
	}
	return out, nil
}

// SeesCardPicture reports whether p may study a deck with a card showing
// the media asset (GET /uploads asks it for card pictures).
func (s *Service) SeesCardPicture(ctx context.Context, p auth.Principal, assetID int64) (bool, error) {
	r, err := s.reach(ctx, p)
	if err != nil {
		return false, err
	}
	return s.store.ShowsPicture(ctx, r, assetID)
}
