// Package app is the flashcards module's logic: decks and who may edit or
// study them, cards of five types, and each learner's FSRS schedule aimed
// at an optional exam date.
package app

import (
	"context"
	"slices"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Config is the flashcards section.
type Config struct {
	ReviewsPerDay int `mapstructure:"reviews_per_day" validate:"gte=1"`
	NewPerDay     int `mapstructure:"new_per_day" validate:"gte=0"`
	FinalPassDays int `mapstructure:"final_pass_days" validate:"gte=1,lte=30"`
	ForecastDays  int `mapstructure:"forecast_days" validate:"gte=1,lte=366"`
	ShareCards    int `mapstructure:"share_cards" validate:"gte=1,lte=5000"`
}

// Articles is what the library offers to check a card's article link: an
// *apperr.Error when the article (or its section) does not exist.
type Articles interface {
	FlashcardArticle(ctx context.Context, articleID int64, sectionID *int64) error
}

// Pictures is what media offers to check a picture p puts on a card: its
// overlay shapes, or an *apperr.Error: 404 when p may not use the asset
// (missing, binned, or one p may not see), 422 when it is not an image.
type Pictures interface {
	FlashcardPicture(ctx context.Context, p auth.Principal, assetID int64) (*Picture, error)
}

// ExamDates is what plans offers: the learner's next study-plan exam
// date, today or later, which aims their schedule in every deck where they
// set no exam date of their own.
type ExamDates interface {
	NextExamDate(ctx context.Context, userID int64) (date time.Time, ok bool, err error)
}

// Ports are filled once every module is built. Articles, Pictures and
// ExamDates are optional: with no module offering them, article links and
// pictures are refused and only a deck's own exam date aims a schedule.
type Ports struct {
	Identity  identity.Facade
	Bank      bank.Facade
	Articles  []Articles
	Pictures  []Pictures
	ExamDates []ExamDates
}

// Deck is a stored deck.
type Deck = store.Deck

// Service holds the flashcards rules.
type Service struct {
	db    *db.DB
	store *store.Store
	ports *Ports
	cfg   Config
}

// New builds the service.
func New(d *db.DB, ports *Ports, cfg Config) *Service {
	return &Service{db: d, store: store.New(d), ports: ports, cfg: cfg}
}

// deckGrants are the caller's deck grants.
func (s *Service) deckGrants(ctx context.Context, p auth.Principal) ([]identity.Grant, error) {
	gs, err := s.ports.Identity.Grants(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(gs, func(g identity.Grant) bool { return g.Kind != identity.GrantDeck }), nil
}

// covers reports whether a deck grant reaches a deck, against the category
// tree as it is now.
func (s *Service) covers(ctx context.Context, g identity.Grant, d *Deck) (bool, error) {
	switch g.Scope {
	case identity.ScopeDeck:
		return g.TargetID == d.ID, nil
	case identity.ScopeCategory:
		if d.CategoryID == nil {
			return false, nil
		}
		return s.ports.Bank.CategoryWithin(ctx, *d.CategoryID, g.TargetID)
	}
	return false, nil
}

// canEdit is can_edit_deck: a moderator, the owner, or a covering grant.
func (s *Service) canEdit(ctx context.Context, p auth.Principal, d *Deck) (bool, error) {
	if p.IsModerator() || d.UserID == p.UserID {
		return true, nil
	}
	gs, err := s.deckGrants(ctx, p)
	if err != nil {
		return false, err
	}
	for _, g := range gs {
		if ok, err := s.covers(ctx, g, d); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// reach is what the caller may study beyond the shared decks.
func (s *Service) reach(ctx context.Context, p auth.Principal) (store.Reach, error) {
	if p.IsModerator() {
		return store.Reach{All: true}, nil
	}
	r := store.Reach{UserID: p.UserID}
	gs, err := s.deckGrants(ctx, p)
	if err != nil {
		return r, err
	}
	var roots []int64
	for _, g := range gs {
		if g.Scope == identity.ScopeDeck {
			r.DeckIDs = append(r.DeckIDs, g.TargetID)
		} else if g.Scope == identity.ScopeCategory {
			roots = append(roots, g.TargetID)
		}
	}
	if len(roots) == 0 {
		return r, nil
	}
	cats, err := s.store.UnsharedCategories(ctx)
	if err != nil {
		return r, err
	}
	for _, c := range cats {
		for _, root := range roots {
			ok, err := s.ports.Bank.CategoryWithin(ctx, c, root)
			if err != nil {
				return r, err
			}
			if ok {
				r.Categories = append(r.Categories, c)
				break
			}
		}
	}
	return r, nil
}

// access is a deck as the caller reaches it.
type access struct {
	deck    *Deck
	canEdit bool
}

// deck loads a deck the caller may see: live, and shared or editable by
// them. Anything else is 404, so hidden decks cannot be probed. lock is the
// row lock to take (inside a transaction).
func (s *Service) deck(ctx context.Context, p auth.Principal, id int64, lock db.Lock) (access, error) {
	d, err := s.store.Deck(ctx, id, lock)
	if db.IsNotFound(err) || (err == nil && d.DeletedAt != nil) {
		return access{}, apperr.NotFoundf("deck %d not found", id)
	}
	if err != nil {
		return access{}, err
	}
	edit, err := s.canEdit(ctx, p, d)
	if err != nil {
		return access{}, err
	}
	if !d.IsShared && !edit {
		return access{}, apperr.NotFoundf("deck %d not found", id)
	}
	return access{deck: d, canEdit: edit}, nil
}

// editable is deck for an edit: 403 when the caller may study the deck but
// not edit it.
func (s *Service) editable(ctx context.Context, p auth.Principal, id int64, lock db.Lock) (*Deck, error) {
	a, err := s.deck(ctx, p, id, lock)
	if err != nil {
		return nil, err
	}
	if !a.canEdit {
		return nil, apperr.Forbiddenf("only a moderator, the deck's owner or a grant holder may change deck %d", id)
	}
	return a.deck, nil
}
