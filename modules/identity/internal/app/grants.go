package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// The grant kind that takes a scope, and its scopes (the facade's GrantDeck,
// ScopeDeck and ScopeCategory).
const (
	KindDeck = "deck"

	ScopeDeck     = "deck"
	ScopeCategory = "category"
)

// Grant is an editorial grant: the stored row, which the service hands out
// as it is.
type Grant = store.Grant

// Grants lists a user's grants.
func (s *Service) Grants(ctx context.Context, userID int64) ([]Grant, error) {
	return s.Store.GrantsOf(ctx, userID)
}

// GrantsOfExisting lists the grants of a user who must exist (404 otherwise).
func (s *Service) GrantsOfExisting(ctx context.Context, userID int64) ([]Grant, error) {
	if _, err := userOrNotFound(s.Store.UserByID(ctx, userID)); err != nil {
		return nil, err
	}
	return s.Grants(ctx, userID)
}

// NewGrant is a grant a moderator gives.
type NewGrant struct {
	Actor    auth.Principal
	UserID   int64
	Kind     string
	TargetID int64
	Scope    string
}

// Give records a grant. Never to yourself; only to learners (moderators
// and administrators already edit everything); a deck grant names its
// scope, other kinds none. Whether the target exists and what a branch
// covers is decided by the module owning it, at check time.
func (s *Service) Give(ctx context.Context, g NewGrant) (Grant, error) {
	if g.UserID == g.Actor.UserID {
		return Grant{}, apperr.BadRequestf("grants are never self-assigned: ask another moderator")
	}
	if g.Kind == KindDeck && g.Scope != ScopeDeck && g.Scope != ScopeCategory {
		return Grant{}, apperr.Invalidf("body.scope", "a deck grant needs scope deck or category")
	}
	if g.Kind != KindDeck && g.Scope != "" {
		return Grant{}, apperr.Invalidf("body.scope", "only deck grants take a scope")
	}
	var out Grant
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		// Lock the holder so a concurrent role change or deletion is ordered with this.
		u, err := s.lockUser(ctx, g.UserID)
		if err != nil {
			return err
		}
		if u.Role != string(auth.RoleUser) {
			return apperr.BadRequestf("%s is a %s and already edits everything: grants are for learners", u.Email, u.Role)
		}
		row := &store.Grant{UserID: u.ID, Kind: g.Kind, TargetID: g.TargetID, Scope: g.Scope, GrantedBy: g.Actor.UserID}
		if err := s.Store.CreateGrant(ctx, row); err != nil {
			if db.IsUniqueViolation(err) {
				return apperr.Conflictf("%s already holds this grant", u.Email)
			}
			return err
		}
		out = *row
		return nil
	})
	return out, err
}

// Revoke removes one of a user's grants.
func (s *Service) Revoke(ctx context.Context, userID, grantID int64) error {
	ok, err := s.Store.DeleteGrant(ctx, userID, grantID)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFoundf("this user holds no grant %d", grantID)
	}
	return nil
}
