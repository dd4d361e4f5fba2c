package app

import (
	"context"
	"slices"

	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// GiveGrant gives a learner a deck grant (moderators): one live deck, or a
// category branch of decks. The target is checked here, where decks live;
// identity keeps the row and its rules (learners only, never yourself).
// The answer is the grant with the decks it reaches now.
func (s *Service) GiveGrant(ctx context.Context, p auth.Principal, userID int64, scope string, targetID int64) (*DeckGrant, error) {
	switch scope {
	case identity.ScopeDeck:
		d, err := s.store.Deck(ctx, targetID, db.NoLock)
		if db.IsNotFound(err) || err == nil && d.DeletedAt != nil {
			return nil, apperr.Invalidf("body.target_id", "deck %d does not exist", targetID)
		}
		if err != nil {
			return nil, err
		}
	case identity.ScopeCategory:
		if err := s.ports.Bank.CheckCategory(ctx, "body.target_id", targetID); err != nil {
			return nil, err
		}
	}
	g, err := s.ports.Identity.GiveGrant(ctx, p, userID, identity.GrantDeck, targetID, scope)
	if err != nil {
		return nil, err
	}
	gs, err := s.Grants(ctx, userID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(gs, func(d DeckGrant) bool { return d.ID == g.ID })
	if i < 0 {
		return &DeckGrant{Grant: g, DeckIDs: []int64{}}, nil // revoked in between
	}
	return &gs[i], nil
}

// RevokeGrant removes one of a person's deck grants (moderators); a grant
// of another kind is not this route's (404), as is one they do not hold.
func (s *Service) RevokeGrant(ctx context.Context, userID, grantID int64) error {
	gs, err := s.deckGrants(ctx, auth.Principal{UserID: userID})
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(gs, func(g identity.Grant) bool { return g.ID == grantID }) {
		return apperr.NotFoundf("user %d holds no deck grant %d", userID, grantID)
	}
	return s.ports.Identity.RevokeGrant(ctx, userID, grantID)
}
