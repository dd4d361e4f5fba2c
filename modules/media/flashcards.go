package media

import (
	"context"

	"github.com/roundsedu/rounds/modules/flashcards"
	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// CardPictures is what flashcards implements so GET /uploads serves a
// card's picture to whoever may study its deck.
type CardPictures = app.CardPictures

// FlashcardPicture implements flashcards.Pictures: a card's picture is an
// image asset p may use (404 for any other id, as for one that does not
// exist), and its overlay shapes are the masks image occlusion cards hide.
func (m *Module) FlashcardPicture(ctx context.Context, p auth.Principal, assetID int64) (*flashcards.Picture, error) {
	shapes, err := m.svc.CardPicture(ctx, p, assetID)
	if err != nil {
		return nil, err
	}
	pic := &flashcards.Picture{Shapes: make([]flashcards.Mask, len(shapes))}
	for i, sh := range shapes {
		pic.Shapes[i] = flashcards.Mask(sh)
	}
	return pic, nil
}
