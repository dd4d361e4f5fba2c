package media

import (
	"context"
	"io"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// NamedImage is a picture another module brings (an Anki package's media
// file) with the name it had there.
type NamedImage = app.NamedImage

// StoredImage is a picture kept: its asset and its storage key.
type StoredImage = app.StoredImage

// CardImages is what the interchange module asks media for the pictures
// of imported files (Anki packages' card pictures, Moodle XML questions'
// pictures) and exported ones.
type CardImages interface {
	// StoreImages checks every image as an uploaded still (422 naming the
	// file), stores them, and in one transaction records them as image
	// assets of p's and calls then with their ids and keys in order; on
	// any failure nothing is left stored.
	StoreImages(ctx context.Context, p auth.Principal, imgs []NamedImage, then func(ctx context.Context, stored []StoredImage) error) error
	// OpenImage opens the bytes of an image asset p may use (the rule
	// media applies to every asset id, as GET /uploads does to its file)
	// and gives its content type: db.ErrNotFound for a missing, binned,
	// hidden or non-image asset.
	OpenImage(ctx context.Context, p auth.Principal, assetID int64) (io.ReadCloser, string, error)
}

var _ CardImages = (*Module)(nil)

// StoreImages implements CardImages.
func (m *Module) StoreImages(ctx context.Context, p auth.Principal, imgs []NamedImage, then func(ctx context.Context, stored []StoredImage) error) error {
	return m.svc.StoreImages(ctx, p, imgs, then)
}

// OpenImage implements CardImages.
func (m *Module) OpenImage(ctx context.Context, p auth.Principal, assetID int64) (io.ReadCloser, string, error) {
	return m.svc.OpenImage(ctx, p, assetID)
}

// OverlayShape is one shape of an image's overlay (pixels), what image
// occlusion cards hide.
type OverlayShape = app.Shape
