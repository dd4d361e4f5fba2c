package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"

	"github.com/roundsedu/rounds/platform/db"
)

// Mask is the overlay shape an image occlusion card hides, copied from the
// picture's overlay when the card is made (image coordinates: a rect or an
// ellipse by x, y, w, h; a polygon by its points).
type Mask struct {
	Kind   string       `json:"kind"`
	X      float64      `json:"x,omitempty"`
	Y      float64      `json:"y,omitempty"`
	W      float64      `json:"w,omitempty"`
	H      float64      `json:"h,omitempty"`
	Points [][2]float64 `json:"points,omitempty"`
	Label  string       `json:"label,omitempty"`
}

// Value stores a mask as jsonb.
func (m Mask) Value() (driver.Value, error) { return json.Marshal(m) }

// Scan reads a mask from jsonb.
func (m *Mask) Scan(src any) error { return db.ScanJSON(src, m) }

// ShowsPicture reports whether a live deck within reach has a card showing
// the picture.
func (s *Store) ShowsPicture(ctx context.Context, r Reach, assetID int64) (bool, error) {
	where, args := r.visible("WHERE c.picture_id = ?")
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM flashcards.cards c
		JOIN flashcards.decks d ON d.id = c.deck_id `+where+`)`, append([]any{assetID}, args...)...).Scan(&ok).Error
	return ok, err
}
