package flashcards

import (
	"context"
	"iter"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Card types another module may import.
const (
	CardBasic    = app.Basic
	CardReversed = app.Reversed
	CardCloze    = app.Cloze
	CardImage    = app.Image
	CardTypeIn   = app.TypeIn
)

// CardState is a learner's FSRS state of a card (State 0 new, 1 learning,
// 2 review, 3 relearning) and CardReview one review of it (Rating 1-4,
// State the card's state before the review), the rows flashcards stores:
// on import the user, card and deck ids are filled here.
type (
	CardState  = store.State
	CardReview = store.ReviewLog
)

// CardSchedule is a learner's schedule of one card of a note: Ord names
// the card as Anki does (0 a basic card or a reversed note's front-to-back
// card, 1 its back-to-front card, n-1 cloze deletion n), then its state
// and its reviews, oldest first.
type CardSchedule struct {
	Ord     int
	State   CardState
	Reviews []CardReview
}

// ImportedCard is one note read from another program's package: front and
// back (for cloze the passage and its extra text), its picture (a media
// asset; Occluded on export when the card hides a shape of it), and the
// schedules of its cards (on export the caller's, on import the
// importer's to be).
type ImportedCard struct {
	Type      string
	Front     string
	Back      string
	PictureID *int64
	Occluded  bool
	Schedules []CardSchedule
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
// (moderators start decks), and the schedules brought become the
// caller's. Export reads a deck the caller may study with the caller's
// schedules; Reviews the caller's reviews of it alone.
type DeckInterchange interface {
	ImportDeck(ctx context.Context, p auth.Principal, d ImportedDeck) (*DeckImport, error)
	ExportDeck(ctx context.Context, p auth.Principal, deckID int64) (*DeckExport, error)
	Reviews(ctx context.Context, p auth.Principal, deckID int64) ([]CardReview, error)
}

var _ DeckInterchange = (*Module)(nil)

// ImportDeck makes a deck and writes each card an editor could have
// written; a card the rules refuse is listed with the reason and skipped.
// The schedules of the cards made become the caller's (a schedule whose
// Ord names no card made is dropped).
func (m *Module) ImportDeck(ctx context.Context, p auth.Principal, d ImportedDeck) (*DeckImport, error) {
	title, cat := d.Title, d.CategoryID
	deck, err := m.svc.CreateManual(ctx, p, app.DeckInput{Title: &title, CategoryID: &cat})
	if err != nil {
		return nil, err
	}
	out := &DeckImport{DeckID: deck.ID, Refused: map[int]string{}}
	var states []CardState
	var logs []CardReview
	for i, c := range d.Cards {
		rows, err := m.svc.AddCard(ctx, p, deck.ID, app.NewCard{Type: c.Type, Front: c.Front, Back: c.Back, PictureID: c.PictureID})
		if ae, ok := apperr.As(err); ok && ae.Code == apperr.Invalid {
			out.Refused[i] = ae.Message // refused before any statement: the transaction goes on
			continue
		}
		if err != nil {
			return nil, err
		}
		out.Rows += len(rows)
		for pos := range rows {
			row := &rows[pos]
			for _, sc := range c.Schedules {
				if sc.Ord != ord(row, pos) {
					continue
				}
				st := sc.State
				st.UserID, st.CardID, st.DeckID = p.UserID, row.ID, deck.ID
				states = append(states, st)
				for _, r := range sc.Reviews {
					r.ID, r.UserID, r.CardID, r.DeckID = 0, p.UserID, row.ID, deck.ID
					logs = append(logs, r)
				}
			}
		}
	}
	if err := m.svc.ImportSchedules(ctx, states, logs); err != nil {
		return nil, err
	}
	return out, nil
}

// ord names a card within its note as Anki does, from its position among
// the note's rows (a reversed note's rows are written front-to-back first).
func ord(c *app.Card, pos int) int {
	if c.ClozeNumber != nil {
		return *c.ClozeNumber - 1
	}
	return pos
}

// DeckExport is a deck being exported: its title and category, the
// earliest time the caller's schedules of it hold (nil: none), and its
// cards as the notes they were written as, read a page at a time so that
// a deck of any size is never held whole.
type DeckExport struct {
	Title      string
	CategoryID int64
	Earliest   *time.Time
	Cards      iter.Seq2[ImportedCard, error]
}

// exportPage is how many cards one read of an export takes.
const exportPage = 500

// ExportDeck opens a deck p may study for export (404 otherwise): its
// Cards give each note (a reversed pair one note, a cloze passage's rows,
// one per deletion number, one note) with p's schedules of its cards.
func (m *Module) ExportDeck(ctx context.Context, p auth.Principal, deckID int64) (*DeckExport, error) {
	deck, earliest, err := m.svc.ExportStart(ctx, p, deckID)
	if err != nil {
		return nil, err
	}
	out := &DeckExport{Title: deck.Title, Earliest: earliest}
	if deck.CategoryID != nil {
		out.CategoryID = *deck.CategoryID
	}
	out.Cards = func(yield func(ImportedCard, error) bool) {
		var note *ImportedCard
		var last *app.Card
		pos := 0
		for after := int64(0); ; {
			cards, states, logs, err := m.svc.ExportPage(ctx, p, deckID, after, exportPage)
			if err != nil {
				yield(ImportedCard{}, err)
				return
			}
			scheds := make(map[int64]*CardSchedule, len(states))
			for _, st := range states {
				scheds[st.CardID] = &CardSchedule{State: st}
			}
			for _, l := range logs {
				if sc := scheds[l.CardID]; sc != nil {
					sc.Reviews = append(sc.Reviews, l)
				}
			}
			for i := range cards {
				c := &cards[i]
				if pos++; !sameNote(last, c) {
					if note != nil && !yield(*note, nil) {
						return
					}
					note = &ImportedCard{Type: c.CardType, Front: c.Front, Back: c.Back, PictureID: c.PictureID, Occluded: c.Mask != nil}
					pos = 0
				}
				last = c
				if sc := scheds[c.ID]; sc != nil {
					sc.Ord = ord(c, pos)
					note.Schedules = append(note.Schedules, *sc)
				}
			}
			if len(cards) < exportPage {
				if note != nil {
					yield(*note, nil)
				}
				return
			}
			after = cards[len(cards)-1].ID
		}
	}
	return out, nil
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

// Reviews gives p's reviews of a deck they may study, by card then time.
func (m *Module) Reviews(ctx context.Context, p auth.Principal, deckID int64) ([]CardReview, error) {
	return m.svc.Reviews(ctx, p, deckID)
}
