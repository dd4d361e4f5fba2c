package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// DeckView is a deck as the caller sees it.
type DeckView struct {
	Deck
	CanEdit  bool
	ExamDate *time.Time
}

// DeckInput is a deck's editable fields; nil leaves a field as it is on
// update.
type DeckInput struct {
	Title         *string
	Description   *string
	CategoryID    *int64
	IgnoreAccents *bool
}

func (in DeckInput) apply(d *Deck) error {
	if in.Title != nil {
		if d.Title = strings.TrimSpace(*in.Title); d.Title == "" {
			return apperr.Invalidf("body.title", "title must not be blank")
		}
	}
	if in.Description != nil {
		d.Description = strings.TrimSpace(*in.Description)
	}
	if in.CategoryID != nil {
		d.CategoryID = in.CategoryID
	}
	if in.IgnoreAccents != nil {
		d.IgnoreAccents = *in.IgnoreAccents
	}
	return nil
}

// CreateManual makes a deck by hand (may_start_a_deck: the route admits
// moderators only). Title and category are required; it starts unshared
// and the caller owns it.
func (s *Service) CreateManual(ctx context.Context, p auth.Principal, in DeckInput) (*DeckView, error) {
	if in.Title == nil || in.CategoryID == nil {
		return nil, apperr.Invalidf("body", "title and category_id are required")
	}
	d := &Deck{UserID: p.UserID}
	if err := in.apply(d); err != nil {
		return nil, err
	}
	if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", *d.CategoryID); err != nil {
		return nil, err
	}
	err := s.db.Tx(ctx, func(ctx context.Context) error { return s.store.InsertDeck(ctx, d) })
	if err != nil {
		return nil, err
	}
	return &DeckView{Deck: *d, CanEdit: true}, nil
}

// List gives the live decks the caller may study, newest first.
func (s *Service) List(ctx context.Context, p auth.Principal, categoryID int64, limit, offset int) ([]Deck, int64, error) {
	r, err := s.reach(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	return s.store.ListDecks(ctx, r, categoryID, limit, offset)
}

// Get reads a deck the caller may study, with its card count and the
// caller's exam date.
func (s *Service) Get(ctx context.Context, p auth.Principal, id int64) (*DeckView, error) {
	a, err := s.deck(ctx, p, id, db.NoLock)
	if err != nil {
		return nil, err
	}
	return s.view(ctx, p, a)
}

func (s *Service) view(ctx context.Context, p auth.Principal, a access) (*DeckView, error) {
	n, err := s.store.CountCards(ctx, a.deck.ID)
	if err != nil {
		return nil, err
	}
	exam, err := s.store.Exam(ctx, p.UserID, a.deck.ID)
	if err != nil {
		return nil, err
	}
	v := &DeckView{Deck: *a.deck, CanEdit: a.canEdit, ExamDate: exam}
	v.CardCount = n
	return v, nil
}

// Update changes a deck's fields (can_edit_deck).
func (s *Service) Update(ctx context.Context, p auth.Principal, id int64, in DeckInput) (*DeckView, error) {
	if in.CategoryID != nil {
		if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", *in.CategoryID); err != nil {
			return nil, err
		}
	}
	var out *DeckView
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.editable(ctx, p, id, db.ForUpdate)
		if err != nil {
			return err
		}
		if err := in.apply(d); err != nil {
			return err
		}
		if err := s.store.UpdateDeck(ctx, d); err != nil {
			return err
		}
		out, err = s.view(ctx, p, access{deck: d, canEdit: true})
		return err
	})
	return out, err
}

// binned loads a deck in any state under a row lock for the bin
// operations; a deck the caller may not edit is 404 when binned (nobody
// else sees it) and 403 when they may study it.
func (s *Service) binned(ctx context.Context, p auth.Principal, id int64) (*Deck, error) {
	d, err := s.store.Deck(ctx, id, db.ForUpdate)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("deck %d not found", id)
	}
	if err != nil {
		return nil, err
	}
	if d.DeletedAt == nil {
		return s.editable(ctx, p, id, db.NoLock)
	}
	edit, err := s.canEdit(ctx, p, d)
	if err != nil {
		return nil, err
	}
	if !edit {
		return nil, apperr.NotFoundf("deck %d not found", id)
	}
	return d, nil
}

// Delete bins a live deck (can_edit_deck) or, with permanent, removes a
// live or binned deck for good with its cards and every learner's
// schedule. A grant carries no deleting, so removal for good is for a
// moderator or the owner.
func (s *Service) Delete(ctx context.Context, p auth.Principal, id int64, permanent bool) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.binned(ctx, p, id)
		if err != nil {
			return err
		}
		if permanent {
			if !p.IsModerator() && d.UserID != p.UserID {
				return apperr.Forbiddenf("a grant does not reach removing deck %d for good: ask a moderator", id)
			}
			return s.store.DeleteDeck(ctx, id)
		}
		if d.DeletedAt != nil {
			return apperr.Conflictf("deck %d is already in the bin", id)
		}
		now := time.Now()
		d.DeletedAt = &now
		return s.store.UpdateDeck(ctx, d)
	})
}

// Restore takes a deck out of the bin (can_edit_deck).
func (s *Service) Restore(ctx context.Context, p auth.Principal, id int64) (*DeckView, error) {
	var out *DeckView
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.binned(ctx, p, id)
		if err != nil {
			return err
		}
		if d.DeletedAt == nil {
			return apperr.Conflictf("deck %d is not in the bin", id)
		}
		d.DeletedAt = nil
		if err := s.store.UpdateDeck(ctx, d); err != nil {
			return err
		}
		out, err = s.view(ctx, p, access{deck: d, canEdit: true})
		return err
	})
	return out, err
}

// Share makes a deck visible site-wide (can_edit_deck); sharing a shared
// deck changes nothing.
func (s *Service) Share(ctx context.Context, p auth.Principal, id int64) (*DeckView, error) {
	return s.setShared(ctx, p, id, true)
}

// ForceUnshare takes a deck off the site (the route admits admins only).
func (s *Service) ForceUnshare(ctx context.Context, p auth.Principal, id int64) (*DeckView, error) {
	return s.setShared(ctx, p, id, false)
}

func (s *Service) setShared(ctx context.Context, p auth.Principal, id int64, shared bool) (*DeckView, error) {
	var out *DeckView
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.editable(ctx, p, id, db.ForUpdate)
		if err != nil {
			return err
		}
		if d.IsShared != shared {
			d.IsShared = shared
			if err := s.store.UpdateDeck(ctx, d); err != nil {
				return err
			}
		}
		out, err = s.view(ctx, p, access{deck: d, canEdit: true})
		return err
	})
	return out, err
}

// Trash lists binned decks to moderators; everyone else gets an empty
// list.
func (s *Service) Trash(ctx context.Context, p auth.Principal, limit, offset int) ([]Deck, int64, error) {
	if !p.IsModerator() {
		return nil, 0, nil
	}
	return s.store.Trash(ctx, limit, offset)
}

// DeckGrant is a deck grant with the live decks it reaches now.
type DeckGrant struct {
	identity.Grant
	DeckIDs []int64
}

// Grants lists a person's deck grants, each with the live decks it covers
// against the tree as it is now (moderators).
func (s *Service) Grants(ctx context.Context, userID int64) ([]DeckGrant, error) {
	if _, err := s.ports.Identity.User(ctx, userID); errors.Is(err, identity.ErrUserNotFound) {
		return nil, apperr.NotFoundf("user %d not found", userID)
	} else if err != nil {
		return nil, err
	}
	gs, err := s.deckGrants(ctx, auth.Principal{UserID: userID})
	if err != nil {
		return nil, err
	}
	cats, err := s.store.LiveCategories(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]DeckGrant, len(gs))
	for i, g := range gs {
		ids, branch := []int64{}, []int64{}
		if g.Scope == identity.ScopeDeck {
			ids = append(ids, g.TargetID)
		} else {
			for _, c := range cats {
				ok, err := s.ports.Bank.CategoryWithin(ctx, c, g.TargetID)
				if err != nil {
					return nil, err
				}
				if ok {
					branch = append(branch, c)
				}
			}
		}
		reached, err := s.store.LiveDeckIDs(ctx, ids, branch)
		if err != nil {
			return nil, err
		}
		out[i] = DeckGrant{Grant: g, DeckIDs: reached}
	}
	return out, nil
}
