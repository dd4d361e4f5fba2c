package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// DeckArticle is a deck's link to a library article.
type DeckArticle = store.DeckArticle

// DeckArticles lists a deck's article links, the source first (anyone who
// may study the deck).
func (s *Service) DeckArticles(ctx context.Context, p auth.Principal, deckID int64) ([]DeckArticle, error) {
	if _, err := s.deck(ctx, p, deckID, db.NoLock); err != nil {
		return nil, err
	}
	return s.store.DeckArticles(ctx, deckID)
}

// LinkDeckArticle links a deck to an article, flagged as the deck's source
// when asked or when it is the deck's first link (the route admits
// moderators, as the card links do). It gives the deck's links.
func (s *Service) LinkDeckArticle(ctx context.Context, p auth.Principal, deckID, articleID int64, source bool) ([]DeckArticle, error) {
	if err := s.article(ctx, articleID, nil); err != nil {
		return nil, err
	}
	return s.deckArticles(ctx, p, deckID, func(ctx context.Context) error {
		return s.store.LinkArticle(ctx, deckID, articleID, source)
	})
}

// UnlinkDeckArticle removes a deck's link to an article; when it was the
// source, the oldest remaining link takes the flag, so a deck with links
// always has exactly one source.
func (s *Service) UnlinkDeckArticle(ctx context.Context, p auth.Principal, deckID, articleID int64) ([]DeckArticle, error) {
	return s.deckArticles(ctx, p, deckID, func(ctx context.Context) error {
		ok, err := s.store.UnlinkArticle(ctx, deckID, articleID)
		if err == nil && !ok {
			return apperr.NotFoundf("deck %d has no link to article %d", deckID, articleID)
		}
		return err
	})
}

// deckArticles changes a deck's links under its row lock and reads them
// back.
func (s *Service) deckArticles(ctx context.Context, p auth.Principal, deckID int64, change func(context.Context) error) ([]DeckArticle, error) {
	var out []DeckArticle
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		if _, err := s.deck(ctx, p, deckID, db.ForUpdate); err != nil {
			return err
		}
		if err := change(ctx); err != nil {
			return err
		}
		var err error
		out, err = s.store.DeckArticles(ctx, deckID)
		return err
	})
	return out, err
}
