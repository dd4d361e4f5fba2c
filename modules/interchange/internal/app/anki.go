package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/flashcards"
	"github.com/roundsedu/rounds/modules/interchange/internal/anki"
	"github.com/roundsedu/rounds/modules/interchange/internal/format"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Flashcards is the port to the flashcards module: an imported deck is
// made through its rules, inside the caller's transaction; an exported one
// is read as its notes.
type Flashcards = flashcards.DeckInterchange

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
		MaxReviews: c.MaxReviews, MaxFieldBytes: c.MaxFieldBytes, QueryTimeout: c.PackageReadTimeout}
}

var cardTypes = map[string]string{anki.Basic: flashcards.CardBasic, anki.Reversed: flashcards.CardReversed,
	anki.Cloze: flashcards.CardCloze}

// ExportAnki writes a deck p may study as an Anki package (basic, reversed
// and cloze notes; other card types are left out and counted), each card
// with p's schedule of it and p's reviews, or new.
func (s *Service) ExportAnki(ctx context.Context, p auth.Principal, deckID int64) (*bytes.Buffer, int, error) {
	deck, err := s.ports.Flashcards.ExportDeck(ctx, p, deckID)
	if err != nil {
		return nil, 0, err
	}
	noteTypes := map[string]string{}
	for k, v := range cardTypes {
		noteTypes[v] = k
	}
	var notes []anki.Note
	left := 0
	for _, c := range deck.Cards {
		t, ok := noteTypes[c.Type]
		if !ok {
			left++ // image and type-in cards have no stock Anki note type
			continue
		}
		notes = append(notes, anki.Note{Item: len(notes) + 1, Type: t, Front: c.Front, Back: c.Back, Schedules: c.Schedules})
	}
	var buf bytes.Buffer
	if err := anki.Write(ctx, &buf, deck.Title, notes); err != nil {
		return nil, 0, err
	}
	return &buf, left, nil
}

// ImportAnki reads an .apkg and makes one deck of its notes, in one
// transaction: a package that cannot be read, or of which no note can be
// imported, stores nothing. The schedules and reviews the package holds
// become p's; media are not imported.
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
	deck := flashcards.ImportedDeck{Title: title, CategoryID: categoryID, Cards: make([]flashcards.ImportedCard, len(res.Notes))}
	for i, n := range res.Notes {
		deck.Cards[i] = flashcards.ImportedCard{Type: cardTypes[n.Type], Front: n.Front, Back: n.Back, Schedules: n.Schedules}
	}
	out := &DeckImported{Title: title, Refused: res.Refused}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
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
