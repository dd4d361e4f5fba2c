// Package app is the labs module's logic: the table of lab reference values
// learners read (published rows only) and moderators keep, each value
// optionally pointing at a library article section and at flashcards.
package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/labs/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Config is the labs section.
type Config struct {
	SeedDemo bool `mapstructure:"seed_demo"`
}

// ListingCap is the spec's cap on the listing (no pagination).
const ListingCap = 500

// Articles is what labs asks of the library module: whether an article
// exists and, when sectionID is not empty, whether that section is one of
// its sections.
type Articles interface {
	ArticleSectionExists(ctx context.Context, articleID int64, sectionID string) (article, section bool, err error)
}

// Cards is what labs asks of the flashcards module: whether a card exists.
type Cards interface {
	CardExists(ctx context.Context, cardID int64) (bool, error)
}

// Ports are filled once every module is built. Both are optional: the app
// may run without a library or flashcards module, and then article ids
// and card links are refused (see docs/decisions/labs.md).
type Ports struct {
	Articles []Articles
	Cards    []Cards
}

// Value is a stored reference value with its linked card ids.
type Value = store.Value

// Tab is one group of the table and how many values it shows.
type Tab = store.Tab

// Listing is what a caller may read of the table.
type Listing struct {
	Tabs      []Tab
	Values    []Value
	Total     int
	Truncated bool
}

// Service holds the labs rules.
type Service struct {
	db    *db.DB
	store *store.Store
	ports *Ports
}

// New builds the service.
func New(d *db.DB, ports *Ports) *Service {
	return &Service{db: d, store: store.New(d), ports: ports}
}

// List gives the published values (everything, drafts too, when a
// moderator asks), capped at ListingCap, with the tabs of every group.
func (s *Service) List(ctx context.Context, p auth.Principal, includeDrafts bool) (*Listing, error) {
	if includeDrafts && !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators may list unpublished lab values")
	}
	vs, tabs, err := s.store.List(ctx, includeDrafts, ListingCap)
	if err != nil {
		return nil, err
	}
	out := &Listing{Tabs: tabs, Values: vs}
	for _, t := range tabs {
		out.Total += t.Count
	}
	out.Truncated = out.Total > len(vs)
	return out, nil
}

// Create stores a new value after every field rule.
func (s *Service) Create(ctx context.Context, in Input) (*Value, error) {
	v, err := s.checked(ctx, in)
	if err != nil {
		return nil, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.Insert(ctx, &v); err != nil {
			return err
		}
		v.CardIDs = []int64{}
		return nil
	})
	return &v, err
}

// Replace overwrites value id with in (PUT: the whole record); its card
// links stay.
func (s *Service) Replace(ctx context.Context, id int64, in Input) (*Value, error) {
	v, err := s.checked(ctx, in)
	if err != nil {
		return nil, err
	}
	v.ID = id
	var out *Value
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.Replace(ctx, &v); err != nil {
			return notFound(id, err)
		}
		out, err = s.store.Get(ctx, id)
		return err
	})
	return out, err
}

// Delete removes a value for good, with its card links.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error { return notFound(id, s.store.Delete(ctx, id)) })
}

// LinkCard links a flashcard to a value (again: no change).
func (s *Service) LinkCard(ctx context.Context, id, cardID int64) (*Value, error) {
	if len(s.ports.Cards) == 0 {
		return nil, apperr.Invalidf("path.card_id", "card_id cannot be linked: this service has no flashcards module, so no card can be checked")
	}
	ok, err := s.ports.Cards[0].CardExists(ctx, cardID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.Invalidf("path.card_id", "card_id must be a real flashcard: card %d does not exist", cardID)
	}
	return s.cards(ctx, id, func(ctx context.Context) error { return s.store.LinkCard(ctx, id, cardID) })
}

// UnlinkCard removes a card's link to a value (absent: no change). It
// needs no flashcards module: a link to a card that has gone can go too.
func (s *Service) UnlinkCard(ctx context.Context, id, cardID int64) (*Value, error) {
	return s.cards(ctx, id, func(ctx context.Context) error { return s.store.UnlinkCard(ctx, id, cardID) })
}

func (s *Service) cards(ctx context.Context, id int64, change func(context.Context) error) (*Value, error) {
	var out *Value
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		ok, err := s.store.Exists(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			return notFound(id, db.ErrNotFound)
		}
		if err := change(ctx); err != nil {
			return err
		}
		out, err = s.store.Get(ctx, id)
		return err
	})
	return out, err
}

// checked applies the field table, then asks the library about the
// article (before any transaction: it is another module's read).
func (s *Service) checked(ctx context.Context, in Input) (Value, error) {
	v, bad := clean(in)
	if len(bad) == 0 && v.ArticleID != nil {
		section := ""
		if v.ArticleSectionID != nil {
			section = *v.ArticleSectionID
		}
		f, err := s.checkArticle(ctx, *v.ArticleID, section)
		if err != nil {
			return v, err
		}
		if f != nil {
			bad = append(bad, *f)
		}
	}
	if len(bad) > 0 {
		return v, invalid(bad)
	}
	return v, nil
}

func (s *Service) checkArticle(ctx context.Context, id int64, section string) (*apperr.Field, error) {
	field := func(name, msg string, args ...any) *apperr.Field {
		e := apperr.Invalidf("body."+name, msg, args...)
		return &e.Fields[0]
	}
	if len(s.ports.Articles) == 0 {
		return field("article_id", "article_id cannot be linked: this service has no library module, so no article can be checked"), nil
	}
	article, sectionOK, err := s.ports.Articles[0].ArticleSectionExists(ctx, id, section)
	switch {
	case err != nil:
		return nil, err
	case !article:
		return field("article_id", "article_id must be a real article: article %d does not exist", id), nil
	case section != "" && !sectionOK:
		return field("article_section_id", "article_section_id must be a section of article %d: it has no section %q", id, section), nil
	}
	return nil, nil
}

func notFound(id int64, err error) error {
	if db.IsNotFound(err) {
		return apperr.NotFoundf("lab value %d not found", id)
	}
	return err
}
