package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

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

// DeckImported is the outcome of an Anki import: the deck, the notes
// imported and the card rows made, how each note type was mapped, and
// each note left out with the reason.
type DeckImported struct {
	DeckID  int64
	Title   string
	Notes   int
	Cards   int
	Mapped  []anki.Mapping
	Refused []format.Refusal
}

// mapped names the reader's card types as flashcards does (an occlusion
// card is an image card hiding shapes).
func mapped(ms []anki.Mapping) []anki.Mapping {
	out := make([]anki.Mapping, len(ms))
	for i, m := range ms {
		m.As = cardTypes[m.As]
		out[i] = m
	}
	return out
}

// notesIn counts the notes (by Item) of which at least one card was made.
func notesIn(cards []anki.Note, refused map[int]string) int {
	items := map[int]bool{}
	for i, c := range cards {
		if _, ok := refused[i]; !ok {
			items[c.Item] = true
		}
	}
	return len(items)
}

// overlay is an occlusion card's shapes as media keeps them.
func overlay(shapes []anki.Shape) []media.OverlayShape {
	out := make([]media.OverlayShape, len(shapes))
	for i, s := range shapes {
		out[i] = media.OverlayShape{Kind: s.Kind, X: s.X, Y: s.Y, W: s.W, H: s.H, Points: s.Points, Label: s.Label}
	}
	return out
}

func (c Config) ankiLimits() anki.Limits {
	return anki.Limits{MaxEntries: c.MaxPackageEntries, MaxUnpackedBytes: c.MaxUnpackedBytes, MaxNotes: c.MaxNotes,
		MaxReviews: c.MaxReviews, MaxFieldBytes: c.MaxFieldBytes, QueryTimeout: c.PackageReadTimeout,
		MaxRowBytes: c.MaxRowBytes, MaxReadBytes: c.MaxReadBytes,
		MaxMediaMapBytes: c.MaxMediaMapBytes, MaxMediaFiles: c.MaxMediaFiles, MaxMediaFileBytes: c.MaxMediaFileBytes,
		MaxMediaBytes: c.MaxMediaBytes}
}

var cardTypes = map[string]string{anki.Basic: flashcards.CardBasic, anki.Reversed: flashcards.CardReversed,
	anki.Cloze: flashcards.CardCloze, anki.TypeIn: flashcards.CardTypeIn, anki.Occlusion: flashcards.CardImage}

// AnkiLayouts are the layouts an export may be written in, by the
// route's name.
var AnkiLayouts = map[string]anki.Layout{"latest": anki.Latest, "legacy": anki.Legacy1}

// AnkiExport is a deck's package, its collection written, ready to be
// zipped into a response; Remove deletes its files.
type AnkiExport struct {
	Filename string
	LeftOut  int // cards no Anki note type of the package holds
	pkg      *anki.Package
	images   []anki.MediaFile
}

// Write streams the package, its pictures read from storage one at a time.
func (e *AnkiExport) Write(w io.Writer) error { return e.pkg.WriteTo(w, e.images) }

// Remove deletes the package's files.
func (e *AnkiExport) Remove() { e.pkg.Remove() }

// ExportAnki writes a deck p may study as an Anki package in the layout
// (basic, reversed, cloze and type-in notes, image cards as basic notes
// showing their picture; occlusion cards are left out and counted), each
// card with p's schedule of it and p's reviews, or new. The deck is read a
// page at a time into the collection, a file on disk, so memory stays
// bounded whatever its size; the pictures are read when the package is
// zipped. A refusal (404) comes before anything is written.
func (s *Service) ExportAnki(ctx context.Context, p auth.Principal, deckID int64, layout anki.Layout) (*AnkiExport, error) {
	deck, err := s.ports.Flashcards.ExportDeck(ctx, p, deckID)
	if err != nil {
		return nil, err
	}
	earliest := time.Now()
	if deck.Earliest != nil && deck.Earliest.Before(earliest) {
		earliest = *deck.Earliest
	}
	pkg, err := anki.NewPackage(ctx, layout, deck.Title, anki.EpochOf(earliest))
	if err != nil {
		return nil, err
	}
	out := &AnkiExport{Filename: fmt.Sprintf("deck-%d.apkg", deckID), pkg: pkg}
	if err := s.writeDeck(ctx, p, deck, out); err != nil {
		pkg.Remove()
		return nil, err
	}
	return out, nil
}

// writeDeck writes the deck's notes into the export's collection.
func (s *Service) writeDeck(ctx context.Context, p auth.Principal, deck *flashcards.DeckExport, out *AnkiExport) error {
	// An image card is a Basic note showing its picture on the front.
	noteTypes := map[string]string{flashcards.CardBasic: anki.Basic, flashcards.CardReversed: anki.Reversed,
		flashcards.CardCloze: anki.Cloze, flashcards.CardTypeIn: anki.TypeIn, flashcards.CardImage: anki.Basic}
	names := map[int64]string{} // asset → its name in the package
	for c, err := range deck.Cards {
		if err != nil {
			return err
		}
		t, ok := noteTypes[c.Type]
		if !ok || c.Occluded {
			out.LeftOut++ // occlusion cards have no stock Anki note type
			continue
		}
		n := anki.Note{Type: t, Front: c.Front, Back: c.Back, Schedules: c.Schedules,
			ImageOnFront: c.Type == flashcards.CardImage}
		if c.PictureID != nil {
			if n.Image, err = s.exportImage(ctx, p, *c.PictureID, names, &out.images); err != nil {
				return err
			}
		}
		if err := out.pkg.Add(n); err != nil {
			return err
		}
	}
	return out.pkg.Finish()
}

// exportImage names a card's picture in the package, adding its file the
// first time; a picture p may not use (binned since the card was made, or
// one media would not show p) is left out ("").
func (s *Service) exportImage(ctx context.Context, p auth.Principal, assetID int64, names map[int64]string, images *[]anki.MediaFile) (string, error) {
	if name, ok := names[assetID]; ok {
		return name, nil
	}
	rc, contentType, err := s.ports.Media.OpenImage(ctx, p, assetID)
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
		rc, _, err := s.ports.Media.OpenImage(ctx, p, assetID)
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
	pictures := make([]int, len(res.Notes)) // note → its picture in imgs, -1 none
	index := map[string]int{}               // media name → position in imgs
	for i, n := range res.Notes {
		pictures[i] = -1
		switch pos, seen := index[n.Image]; {
		case n.Image == "":
		case len(n.Shapes) > 0: // the overlay belongs to the asset: one per occlusion note
			pictures[i] = len(imgs)
			imgs = append(imgs, media.NamedImage{Name: n.Image, Data: res.Media[n.Image], Overlay: overlay(n.Shapes)})
		case seen:
			pictures[i] = pos
		default:
			index[n.Image], pictures[i] = len(imgs), len(imgs)
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
	out := &DeckImported{Title: title, Refused: res.Refused, Mapped: mapped(res.Mapped)}
	err = s.ports.Media.StoreImages(ctx, p, imgs, func(ctx context.Context, stored []media.StoredImage) error {
		for i, pos := range pictures {
			if pos >= 0 {
				deck.Cards[i].PictureID = &stored[pos].ID
			}
		}
		return s.db.Tx(ctx, func(ctx context.Context) error {
			imp, err := s.ports.Flashcards.ImportDeck(ctx, p, deck)
			if err != nil {
				return err
			}
			for i, why := range imp.Refused {
				r := format.Refusal{Item: res.Notes[i].Item, Reason: why}
				if !slices.Contains(out.Refused, r) { // a note's cards refused alike are one refusal
					out.Refused = append(out.Refused, r)
				}
			}
			if imp.Rows == 0 {
				return refusedAll(out.Refused, "notes") // rolls the empty deck back
			}
			out.DeckID, out.Cards = imp.DeckID, imp.Rows
			out.Notes = notesIn(res.Notes, imp.Refused)
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
