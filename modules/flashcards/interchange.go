package flashcards

import (
	"context"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Card types another module may import.
const (
	CardBasic    = app.Basic
	CardReversed = app.Reversed
	CardCloze    = app.Cloze
)

// ImportedCard is one note read from another program's package: front and
// back (for cloze the passage and its extra text).
type ImportedCard struct {
	Type  string
	Front string
	Back  string
}

// ImportedDeck is a deck read from another program's package.
type ImportedDeck struct {
	Title      string
	CategoryID int64
	Cards      []ImportedCard
}

// DeckImport is what an import made: the deck, the card rows stored, and
// for each card refused (by its index in ImportedDeck.Cards) the reason.
type DeckImport struct {
	DeckID  int64
	Rows    int
	Refused map[int]string
}

// DeckInterchange is what the interchange module asks flashcards. On
// import the caller holds the transaction: the deck and its cards are
// written in it, through the same rules as a deck and cards made by hand
// (moderators start decks). Export reads a deck the caller may study.
type DeckInterchange interface {
	ImportDeck(ctx context.Context, p auth.Principal, d ImportedDeck) (*DeckImport, error)
	ExportDeck(ctx context.Context, p auth.Principal, deckID int64) (*ImportedDeck, error)
}

var _ DeckInterchange = (*Module)(nil)

// ImportDeck makes a deck and writes each card an editor could have
// written; a card the rules refuse is listed with the reason and skipped.
func (m *Module) ImportDeck(ctx context.Context, p auth.Principal, d ImportedDeck) (*DeckImport, error) {
	title, cat := d.Title, d.CategoryID
	deck, err := m.svc.CreateManual(ctx, p, app.DeckInput{Title: &title, CategoryID: &cat})
	if err != nil {
		return nil, err
	}
	out := &DeckImport{DeckID: deck.ID, Refused: map[int]string{}}
	for i, c := range d.Cards {
		rows, err := m.svc.AddCard(ctx, p, deck.ID, app.NewCard{Type: c.Type, Front: c.Front, Back: c.Back})
		if ae, ok := apperr.As(err); ok && ae.Code == apperr.Invalid {
			out.Refused[i] = ae.Message // refused before any statement: the transaction goes on
			continue
		}
		if err != nil {
			return nil, err
		}
		out.Rows += len(rows)
	}
	return out, nil
}

// ExportDeck reads a deck p may study as the notes it was written as: a
// reversed pair is one note, a cloze passage's rows (one per deletion
// number) one note.
func (m *Module) ExportDeck(ctx context.Context, p auth.Principal, deckID int64) (*ImportedDeck, error) {
	deck, err := m.svc.Get(ctx, p, deckID)
	if err != nil {
		return nil, err
	}
	out := &ImportedDeck{Title: deck.Title}
	if deck.CategoryID != nil {
		out.CategoryID = *deck.CategoryID
	}
	const page = 500
	var last *app.Card
	for offset := 0; ; offset += page {
		cards, total, err := m.svc.Cards(ctx, p, deckID, page, offset)
		if err != nil {
			return nil, err
		}
		for i := range cards {
			c := &cards[i]
			if sameNote(last, c) {
				continue
			}
			out.Cards = append(out.Cards, ImportedCard{Type: c.CardType, Front: c.Front, Back: c.Back})
			last = c
		}
		if offset+page >= int(total) || len(cards) == 0 {
			return out, nil
		}
	}
}

// sameNote reports whether c is a further row of the note prev began: the
// second row of a reversed pair, or the next deletion of a cloze passage.
func sameNote(prev, c *app.Card) bool {
	switch {
	case prev == nil || prev.CardType != c.CardType:
		return false
	case c.CardType == app.Reversed:
		return c.PairID != nil && prev.PairID != nil && *c.PairID == *prev.PairID
	case c.CardType == app.Cloze:
		return c.Front == prev.Front && c.Back == prev.Back && prev.ClozeNumber != nil && c.ClozeNumber != nil &&
			*c.ClozeNumber > *prev.ClozeNumber
	}
	return false
}
