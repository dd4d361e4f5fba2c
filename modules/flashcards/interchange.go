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

// DeckImporter is what the interchange module asks flashcards. The caller
// holds the transaction: the deck and its cards are written in it, through
// the same rules as a deck and cards made by hand (moderators start decks).
type DeckImporter interface {
	ImportDeck(ctx context.Context, p auth.Principal, d ImportedDeck) (*DeckImport, error)
}

var _ DeckImporter = (*Module)(nil)

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
