package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Schedules gives the caller's states of a deck's cards and their reviews
// (a deck they may study).
func (s *Service) Schedules(ctx context.Context, p auth.Principal, deckID int64) ([]store.State, []store.ReviewLog, error) {
	if _, err := s.deck(ctx, p, deckID, db.NoLock); err != nil {
		return nil, nil, err
	}
	return s.store.Schedules(ctx, p.UserID, deckID)
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
