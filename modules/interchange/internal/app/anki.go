package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/flashcards"
	"github.com/roundsedu/rounds/modules/interchange/internal/anki"
	"github.com/roundsedu/rounds/modules/interchange/internal/format"
	"github.com/roundsedu/rounds/modules/media"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/storage"
)

// Flashcards is the port to the flashcards module: an imported deck is
// made through its rules, inside the caller's transaction; an exported one
// is read as its notes.
type Flashcards = flashcards.DeckInterchange

// Media is the port to the media module: an imported note's picture is
// kept as an image asset, an exported card's picture read back.
type Media = media.CardImages

// DeckImported is the outcome of an Anki import.
type DeckImported struct {
	DeckID  int64
	Title   string
	Notes   int
	Cards   int
	Refused []format.Refusal
}

func (c Config) ankiLimits() anki.Limits {
	return anki.Limits{MaxEntries: c.MaxPackageEntries, MaxUnpackedBytes: c.MaxUnpackedBytes, MaxNotes: c.MaxNotes,
		MaxReviews: c.MaxReviews, MaxFieldBytes: c.MaxFieldBytes, QueryTimeout: c.PackageReadTimeout,
		MaxMediaMapBytes: c.MaxMediaMapBytes, MaxMediaFiles: c.MaxMediaFiles, MaxMediaFileBytes: c.MaxMediaFileBytes,
		MaxMediaBytes: c.MaxMediaBytes}
}

var cardTypes = map[string]string{anki.Basic: flashcards.CardBasic, anki.Reversed: flashcards.CardReversed,
	anki.Cloze: flashcards.CardCloze}

// AnkiExport is a deck read and its collection written, ready to stream
// as an .apkg (Package.Write); Close removes the collection.
type AnkiExport struct {
	*anki.Package
	Filename string
	LeftOut  int // occlusion and type-in cards, which have no stock note type
}

// ExportAnki readies a deck p may study as an Anki package (basic, reversed
// and cloze notes, image cards as basic notes showing their picture;
// occlusion cards are left out and counted), each card with p's schedule
// of it and p's reviews, or new. Every refusal comes before the package is
// streamed; the cards' pictures are its media, read from storage one at a
// time as it is written, so the package is never held whole in memory.
func (s *Service) ExportAnki(ctx context.Context, p auth.Principal, deckID int64) (*AnkiExport, error) {
	deck, err := s.ports.Flashcards.ExportDeck(ctx, p, deckID)
	if err != nil {
		return nil, err
	}
	noteTypes := map[string]string{}
	for k, v := range cardTypes {
		noteTypes[v] = k
	}
	noteTypes[flashcards.CardImage] = anki.Basic
	var notes []anki.Note
	var images []anki.MediaFile
	names := map[int64]string{} // asset → its name in the package
	left := 0
	for _, c := range deck.Cards {
		t, ok := noteTypes[c.Type]
		if !ok || c.Occluded {
			left++ // type-in and occlusion cards have no stock Anki note type
			continue
		}
		n := anki.Note{Item: len(notes) + 1, Type: t, Front: c.Front, Back: c.Back, Schedules: c.Schedules,
			ImageOnFront: c.Type == flashcards.CardImage}
		if c.PictureID != nil {
			if n.Image, err = s.exportImage(ctx, *c.PictureID, names, &images); err != nil {
				return nil, err
			}
		}
		notes = append(notes, n)
	}
	pkg, err := anki.Build(ctx, deck.Title, notes, images)
	if err != nil {
		return nil, err
	}
	return &AnkiExport{Package: pkg, Filename: fmt.Sprintf("deck-%d.apkg", deckID), LeftOut: left}, nil
}

// exportImage names a card's picture in the package, adding its file the
// first time; a picture binned since the card was made is left out ("").
func (s *Service) exportImage(ctx context.Context, assetID int64, names map[int64]string, images *[]anki.MediaFile) (string, error) {
	if name, ok := names[assetID]; ok {
		return name, nil
	}
	rc, contentType, err := s.ports.Media.OpenImage(ctx, assetID)
	if errors.Is(err, db.ErrNotFound) || errors.Is(err, storage.ErrNotFound) {
		names[assetID] = ""
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("interchange: picture %d: %w", assetID, err)
	}
	_ = rc.Close() // opened again when the package is written: one file held at a time
	ext := strings.TrimPrefix(contentType, "image/")
	if ext == "jpeg" {
		ext = "jpg"
	}
	name := fmt.Sprintf("rounds-%d.%s", assetID, ext)
	names[assetID] = name
	*images = append(*images, anki.MediaFile{Name: name, Open: func() (io.ReadCloser, error) {
		rc, _, err := s.ports.Media.OpenImage(ctx, assetID)
		return rc, err
	}})
	return name, nil
}

// ImportAnki reads an .apkg and makes one deck of its notes, in one
// transaction: a package that cannot be read, or of which no note can be
// imported, stores nothing. The notes' pictures are kept through media
// first (checked, stored, recorded in the same transaction, removed again
// if it fails) and become the cards' pictures. The schedules and reviews
// the package holds become p's.
func (s *Service) ImportAnki(ctx context.Context, p auth.Principal, data []byte, categoryID int64, title string) (*DeckImported, error) {
	res, err := anki.Read(ctx, data, s.cfg.ankiLimits())
	if err != nil {
		return nil, packageError(err)
	}
	if len(res.Notes) == 0 {
		return nil, refusedAll(res.Refused, "notes")
	}
	if title = strings.TrimSpace(title); title == "" {
		title = strings.TrimSpace(res.DeckName)
	}
	if title == "" {
		title = "Anki import"
	}
	var imgs []media.NamedImage
	index := map[string]int{} // media name → position in imgs
	for _, n := range res.Notes {
		if _, ok := index[n.Image]; n.Image != "" && !ok {
			index[n.Image] = len(imgs)
			imgs = append(imgs, media.NamedImage{Name: n.Image, Data: res.Media[n.Image]})
		}
	}
	deck := flashcards.ImportedDeck{Title: title, CategoryID: categoryID, Cards: make([]flashcards.ImportedCard, len(res.Notes))}
	for i, n := range res.Notes {
		deck.Cards[i] = flashcards.ImportedCard{Type: cardTypes[n.Type], Front: n.Front, Back: n.Back, Schedules: n.Schedules}
		if n.Type == anki.Basic && n.ImageOnFront {
			deck.Cards[i].Type = flashcards.CardImage // the picture is the question side
		}
	}
	out := &DeckImported{Title: title, Refused: res.Refused}
	err = s.ports.Media.StoreImages(ctx, p, imgs, func(ctx context.Context, ids []int64) error {
		for i, n := range res.Notes {
			if n.Image != "" {
				deck.Cards[i].PictureID = &ids[index[n.Image]]
			}
		}
		return s.db.Tx(ctx, func(ctx context.Context) error {
			imp, err := s.ports.Flashcards.ImportDeck(ctx, p, deck)
			if err != nil {
				return err
			}
			for i, why := range imp.Refused {
				out.Refused = append(out.Refused, format.Refusal{Item: res.Notes[i].Item, Reason: why})
			}
			if imp.Rows == 0 {
				return refusedAll(out.Refused, "notes") // rolls the empty deck back
			}
			out.DeckID, out.Cards, out.Notes = imp.DeckID, imp.Rows, len(res.Notes)-len(imp.Refused)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out.Refused, func(a, b format.Refusal) int { return a.Item - b.Item })
	return out, nil
}

// packageError turns a reader's refusal of the whole package into the
// envelope: a path outside the package 422, over a limit 413, unreadable 400.
func packageError(err error) error {
	var hostile anki.ErrHostile
	var large anki.ErrTooLarge
	var malformed anki.ErrMalformed
	switch {
	case errors.As(err, &hostile):
		return apperr.Invalidf("body", "%v; nothing was imported", err)
	case errors.As(err, &large):
		return apperr.New(apperr.TooLarge, "%v; nothing was imported", err)
	case errors.As(err, &malformed):
		return apperr.BadRequestf("%v; nothing was imported", err)
	}
	return fmt.Errorf("interchange: reading an Anki package: %w", err)
}
