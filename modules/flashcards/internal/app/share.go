package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// SharedDeck is a deck as a share link's visitor reads it: both sides of
// its first cards (studying shows the back anyway). Pictures are left out:
// uploads are served only to signed-in callers.
type SharedDeck struct {
	Title       string       `json:"title"`
	Description string       `json:"description"`
	CardCount   int64        `json:"card_count" doc:"all the deck's cards; at most share_cards are listed"`
	Cards       []SharedCard `json:"cards"`
}

// SharedCard is one card of a shared deck, rendered for its type.
type SharedCard struct {
	ID       int64  `json:"id"`
	CardType string `json:"card_type"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// ShareableDeck checks p may hand out a link to a deck: one they may study
// (404 otherwise) that is shared site-wide (409 otherwise: a link shows
// readers what the site already shows its learners). It gives the title.
func (s *Service) ShareableDeck(ctx context.Context, p auth.Principal, id int64) (string, error) {
	a, err := s.deck(ctx, p, id, db.NoLock)
	if err != nil {
		return "", err
	}
	if !a.deck.IsShared {
		return "", apperr.Conflictf("only a deck shared site-wide can be shared by link: share deck %d first", id)
	}
	return a.deck.Title, nil
}

// SharedView reads a deck for an anonymous visitor while it is live and
// shared (410 once it is not).
func (s *Service) SharedView(ctx context.Context, id int64) (*SharedDeck, error) {
	d, err := s.store.Deck(ctx, id, db.NoLock)
	if db.IsNotFound(err) || err == nil && (d.DeletedAt != nil || !d.IsShared) {
		return nil, apperr.Gone("this deck is no longer shared")
	}
	if err != nil {
		return nil, err
	}
	cards, total, err := s.store.Cards(ctx, id, s.cfg.ShareCards, 0)
	if err != nil {
		return nil, err
	}
	out := &SharedDeck{Title: d.Title, Description: d.Description, CardCount: total, Cards: make([]SharedCard, len(cards))}
	for i := range cards {
		q, a := render(&cards[i])
		out.Cards[i] = SharedCard{ID: cards[i].ID, CardType: cards[i].CardType, Question: q, Answer: a}
	}
	return out, nil
}
