package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// ExportStart checks that p may study the deck and gives it with the
// earliest time p's schedules of it hold (nil: none).
func (s *Service) ExportStart(ctx context.Context, p auth.Principal, deckID int64) (*Deck, *time.Time, error) {
	a, err := s.deck(ctx, p, deckID, db.NoLock)
	if err != nil {
		return nil, nil, err
	}
	earliest, err := s.store.EarliestSchedule(ctx, p.UserID, deckID)
	return a.deck, earliest, err
}

// ExportPage reads up to limit of a deck's cards after a card id, by id,
// with p's states and reviews of them (the deck already checked by
// ExportStart).
func (s *Service) ExportPage(ctx context.Context, p auth.Principal, deckID, after int64, limit int) ([]Card, []store.State, []store.ReviewLog, error) {
	cards, err := s.store.CardsAfter(ctx, deckID, after, limit)
	if err != nil || len(cards) == 0 {
		return cards, nil, nil, err
	}
	ids := make([]int64, len(cards))
	for i := range cards {
		ids[i] = cards[i].ID
	}
	states, logs, err := s.store.SchedulesOf(ctx, p.UserID, ids)
	return cards, states, logs, err
}

// Reviews gives the caller's reviews of a deck's cards (a deck they may
// study), by card then time.
func (s *Service) Reviews(ctx context.Context, p auth.Principal, deckID int64) ([]store.ReviewLog, error) {
	if _, err := s.deck(ctx, p, deckID, db.NoLock); err != nil {
		return nil, err
	}
	return s.store.Reviews(ctx, p.UserID, deckID)
}

// ImportSchedules stores states and reviews brought with cards just
// imported; the caller fills user, card and deck ids and holds the
// transaction the cards were written in.
func (s *Service) ImportSchedules(ctx context.Context, states []store.State, logs []store.ReviewLog) error {
	return s.store.InsertSchedules(ctx, states, logs)
}
