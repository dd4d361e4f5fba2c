package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/roundsedu/rounds/modules/media/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Placement names the section a figure goes on.
type Placement struct {
	ArticleID  int64
	SectionKey string
	Replace    bool
}

// TooLarge is the refusal of a file over an application limit (400; the
// front proxy's own limit answers a bare 413 before the app sees it).
func TooLarge(what string, limit int64) error {
	return apperr.BadRequestf("the %s is larger than the limit of %.1f MiB", what, float64(limit)/(1<<20))
}

// Upload is an uploaded file spooled to a temporary file while it is
// checked and stored, so a 25 MiB clip never sits in the heap.
type Upload struct {
	f    *os.File
	size int64
}

// Close removes the temporary file.
func (u *Upload) Close() error {
	err := u.f.Close()
	if rerr := os.Remove(u.f.Name()); err == nil {
		err = rerr
	}
	return err
}

// Spool copies an upload to a temporary file, at most the clip limit (the
// larger one) plus one byte: a longer body is refused without being read
// to its end.
func (s *Service) Spool(r io.Reader) (*Upload, error) {
	f, err := os.CreateTemp("", "rounds-upload-*")
	if err != nil {
		return nil, fmt.Errorf("media: spool: %w", err)
	}
	u := &Upload{f: f}
	if u.size, err = io.Copy(f, io.LimitReader(r, s.cfg.MaxClipBytes+1)); err == nil && u.size > s.cfg.MaxClipBytes {
		err = TooLarge("file", s.cfg.MaxClipBytes)
	}
	if err != nil {
		_ = u.Close()
		return nil, err
	}
	return u, nil
}

// sniffLen is how much of a file the type is judged from (mimetype's own
// read limit).
const sniffLen = 3072

// UploadFigure stores an uploaded still or clip as an asset and places it
// on a section. Everything is checked before the bytes are stored; the
// asset row and the library's figure write share one transaction, and the
// stored bytes are removed again if it fails.
func (s *Service) UploadFigure(ctx context.Context, p auth.Principal, at Placement, m Meta, up *Upload) (*Asset, error) {
	if up.size == 0 {
		return nil, apperr.Invalidf("file", "the file is empty")
	}
	if err := s.ports.Library.CheckFigure(ctx, p, at.ArticleID, at.SectionKey, at.Replace); err != nil {
		return nil, err
	}
	if err := s.checkMeta(ctx, &m); err != nil {
		return nil, err
	}
	head := make([]byte, min(sniffLen, up.size))
	if _, err := up.f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("media: spool: %w", err)
	}
	t, err := sniff(head)
	if err != nil {
		return nil, err
	}
	a := &store.Asset{Kind: t.kind, ContentType: t.contentType, ByteSize: up.size}
	if t.clip {
		if a.ByteSize > s.cfg.MaxClipBytes {
			return nil, TooLarge("clip", s.cfg.MaxClipBytes)
		}
		if err := checkClip(t, up.f, up.size); err != nil {
			return nil, err
		}
	} else {
		if a.ByteSize > s.cfg.MaxStillBytes {
			return nil, TooLarge("image", s.cfg.MaxStillBytes)
		}
		if a.Width, a.Height, err = s.checkStill(up.f, up.size); err != nil {
			return nil, err
		}
	}
	return s.storeAndPlace(ctx, p, at, m, a, t.ext, io.NewSectionReader(up.f, 0, up.size))
}

// storeAndPlace stores the bytes under a new key, then records the asset
// and places it in one transaction. Its callers have asked the library
// (CheckFigure) first, before reading what the editor sent: someone who
// may not edit the article learns nothing of the image libraries or
// categories the body names.
func (s *Service) storeAndPlace(ctx context.Context, p auth.Principal, at Placement, m Meta, a *store.Asset, ext string, body io.Reader) (*Asset, error) {
	a.Path = newKey(ext, time.Now())
	if _, err := s.files.Put(ctx, a.Path, body, a.ContentType); err != nil {
		return nil, fmt.Errorf("media: store: %w", err)
	}
	fill(a, m)
	a.Storage, a.CreatedBy = "default", p.UserID
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.Insert(ctx, a); err != nil {
			return err
		}
		return s.ports.Library.PlaceFigure(ctx, p, at.ArticleID, at.SectionKey, a.Path, a.AltText, at.Replace)
	})
	if err != nil {
		if derr := s.files.Delete(context.WithoutCancel(ctx), a.Path); derr != nil {
			s.log.Warn("media: stored bytes left behind", "path", a.Path, "error", derr)
		}
		return nil, err
	}
	return a, nil
}

// fill copies the editor's metadata onto the asset; the caption is the alt
// text.
func fill(a *store.Asset, m Meta) {
	a.Title, a.Caption, a.AltText = m.Title, m.Caption, m.Caption
	a.Source, a.SourceURL, a.License = m.Source, m.SourceURL, m.License
	a.Modality, a.LibraryID, a.CategoryID = m.Modality, m.LibraryID, m.CategoryID
}

// PlaceExisting hangs an asset the caller may use (Usable) on another
// section (no new bytes). The asset row is locked so a bin cannot slip in
// between the check and the placement.
func (s *Service) PlaceExisting(ctx context.Context, p auth.Principal, at Placement, assetID int64) (*Asset, error) {
	var out *Asset
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.Usable(ctx, p, assetID, db.ForUpdate)
		if err != nil {
			return err
		}
		out = a
		return s.ports.Library.PlaceFigure(ctx, p, at.ArticleID, at.SectionKey, a.Path, a.AltText, at.Replace)
	})
	return out, err
}

// GalleryItem is a figure of an article with its asset.
type GalleryItem struct {
	SectionKey string
	Asset      *Asset
}

// Gallery lists an article's figures in the order of its markdown; a file
// that is not an asset (written by hand) or is binned is left out.
func (s *Service) Gallery(ctx context.Context, p auth.Principal, articleID int64) ([]GalleryItem, error) {
	figs, err := s.ports.Library.Gallery(ctx, p, articleID)
	if err != nil {
		return nil, err
	}
	out := []GalleryItem{}
	for _, f := range figs {
		a, err := s.store.ByPath(ctx, f.Path)
		if db.IsNotFound(err) || (err == nil && a.DeletedAt != nil) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, GalleryItem{SectionKey: f.SectionKey, Asset: a})
	}
	return out, nil
}

// specJSON keeps the diagram spec an SVG was drawn from.
func specJSON(v any) (json.RawMessage, error) { return json.Marshal(v) }
