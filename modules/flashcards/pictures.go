package flashcards

import (
	"context"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// Picture is what media says of a card's picture: its overlay shapes.
type Picture = app.Picture

// Mask is one overlay shape, as an image occlusion card hides it.
type Mask = app.Mask

// SeesCardPicture tells media whether p may study a deck with a card
// showing the asset, so GET /uploads serves card pictures to learners.
func (m *Module) SeesCardPicture(ctx context.Context, p auth.Principal, assetID int64) (bool, error) {
	return m.svc.SeesCardPicture(ctx, p, assetID)
}
