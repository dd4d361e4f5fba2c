package flashcards

import "context"

// CardExists tells labs whether a flashcard exists.
func (m *Module) CardExists(ctx context.Context, cardID int64) (bool, error) {
	return m.svc.CardExists(ctx, cardID)
}

// DeckExists tells plans whether a live deck exists.
func (m *Module) DeckExists(ctx context.Context, deckID int64) (bool, error) {
	return m.svc.DeckExists(ctx, deckID)
}
