package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/roundsedu/rounds/modules/media/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// NamedImage is a picture another module brings (an Anki package's media
// file), with the name it had there and the overlay shapes it carries (an
// image occlusion note's, in the picture's pixels).
type NamedImage struct {
	Name    string
	Data    []byte
	Overlay []Shape
}

// StoredImage is a picture kept: its asset and its storage key (what a
// question's image_path holds).
type StoredImage struct {
	ID   int64
	Path string
}

// StoreImages keeps pictures another module brings as image assets of p's:
// each is checked as an uploaded still is (PNG, JPEG or WebP by its bytes,
// size and dimensions, decodable), all before any is stored; then the bytes
// are stored, and one transaction records the assets and runs then with
// their ids, in order. If anything fails the rows roll back and the stored
// bytes are removed: nothing is left.
func (s *Service) StoreImages(ctx context.Context, p auth.Principal, imgs []NamedImage, then func(ctx context.Context, stored []StoredImage) error) error {
	assets := make([]*store.Asset, len(imgs))
	exts := make([]string, len(imgs))
	for i, img := range imgs {
		a, ext, err := s.checkImage(img)
		if err != nil {
			return err
		}
		assets[i], exts[i] = a, ext
	}
	var stored []string
	remove := func() {
		for _, key := range stored {
			if err := s.files.Delete(context.WithoutCancel(ctx), key); err != nil {
				s.log.Warn("media: stored bytes left behind", "path", key, "error", err)
			}
		}
	}
	now := time.Now()
	for i, a := range assets {
		a.Path = newKey(exts[i], now)
		if _, err := s.files.Put(ctx, a.Path, bytes.NewReader(imgs[i].Data), a.ContentType); err != nil {
			remove()
			return fmt.Errorf("media: store: %w", err)
		}
		stored = append(stored, a.Path)
	}
	kept := make([]StoredImage, len(assets))
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		for i, a := range assets {
			a.Storage, a.CreatedBy = "default", p.UserID
			if err := s.store.Insert(ctx, a); err != nil {
				return err
			}
			kept[i] = StoredImage{ID: a.ID, Path: a.Path}
		}
		return then(ctx, kept)
	})
	if err != nil {
		remove()
	}
	return err
}

// checkImage is the still upload's checks on a brought picture; a refusal
// names the file.
func (s *Service) checkImage(img NamedImage) (*store.Asset, string, error) {
	refuse := func(why string) error {
		return apperr.Invalidf("body", "image %q: %s; nothing was imported", img.Name, why)
	}
	if len(img.Data) == 0 {
		return nil, "", refuse("the file is empty")
	}
	t, err := sniff(img.Data[:min(sniffLen, len(img.Data))])
	if err != nil || t.clip {
		return nil, "", refuse("not a PNG, JPEG or WebP picture")
	}
	if int64(len(img.Data)) > s.cfg.MaxStillBytes {
		return nil, "", refuse(fmt.Sprintf("larger than the limit of %.1f MiB", float64(s.cfg.MaxStillBytes)/(1<<20)))
	}
	a := &store.Asset{Kind: t.kind, ContentType: t.contentType, ByteSize: int64(len(img.Data)),
		Title: img.Name, Caption: img.Name, AltText: img.Name}
	if a.Width, a.Height, err = s.checkStill(bytes.NewReader(img.Data), a.ByteSize); err != nil {
		if ae, ok := apperr.As(err); ok {
			return nil, "", refuse(ae.Message)
		}
		return nil, "", err
	}
	if len(img.Overlay) > MaxShapes {
		return nil, "", refuse(fmt.Sprintf("an overlay holds at most %d shapes", MaxShapes))
	}
	for i, sh := range img.Overlay {
		if err := checkShape(i, sh, a); err != nil {
			if ae, ok := apperr.As(err); ok {
				return nil, "", refuse(fmt.Sprintf("%s: %s", ae.Fields[0].Field, ae.Message))
			}
			return nil, "", err
		}
	}
	a.Overlay = img.Overlay
	return a, t.ext, nil
}

// OpenImage opens the bytes of an image asset p may use (Usable), with
// its content type; db.ErrNotFound for any other.
func (s *Service) OpenImage(ctx context.Context, p auth.Principal, id int64) (io.ReadCloser, string, error) {
	a, err := s.Usable(ctx, p, id, db.NoLock)
	if apperr.Is(err, apperr.NotFound) || (err == nil && a.Kind != "image") {
		return nil, "", db.ErrNotFound
	}
	if err != nil {
		return nil, "", err
	}
	rc, err := s.files.Open(ctx, a.Path)
	if err != nil {
		return nil, "", err
	}
	return rc, a.ContentType, nil
}
