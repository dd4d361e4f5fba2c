// Package app is the library's logic: articles with ordered sections,
// revisions written before every change, slugs with their history, the
// bin, server-side rendering with cross-references checked on save, and
// the search index kept in step per section.
package app

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/modules/library/generation"
	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Config is the library section.
type Config struct {
	ClaimsEvery     time.Duration `mapstructure:"claims_every" validate:"gt=0"`
	MaxSections     int           `mapstructure:"max_sections" validate:"gte=1,lte=500"`
	MaxSectionChars int           `mapstructure:"max_section_chars" validate:"gte=100,lte=100000"`
}

// Grants is the port to identity: the editorial grants a person holds.
type Grants interface {
	Grants(ctx context.Context, userID int64) ([]identity.Grant, error)
}

// Categories is the port to the bank, which owns the category tree.
type Categories interface {
	CheckCategory(ctx context.Context, field string, id int64) error
	CategoryWithin(ctx context.Context, id, root int64) (bool, error)
	QuestionFilings(ctx context.Context, ids []int64) (map[int64]bank.Filing, error)
}

// Ports are the facades the library asks, filled once every module is
// built.
type Ports struct {
	Grants     Grants
	Categories Categories
	Search     search.Facade
	Writer     generation.Writer // the AI module writes generated articles and cards
	Questions  Questions         // the bank's questions a generation grounds on
	Decks      Decks             // flashcards stores generated cards
}

// Deps are what the service is built from.
type Deps struct {
	DB     *db.DB
	Bus    events.Publisher
	Queue  *jobs.Queue
	Ports  *Ports
	Config Config
	Log    *slog.Logger
}

// Service holds the library's rules.
type Service struct {
	db    *db.DB
	store *store.Store
	bus   events.Publisher
	queue *jobs.Queue
	ports *Ports
	cfg   Config
	log   *slog.Logger
}

// New builds the service.
func New(d Deps) *Service {
	return &Service{db: d.DB, store: store.New(d.DB), bus: d.Bus, queue: d.Queue, ports: d.Ports, cfg: d.Config, log: d.Log}
}

// editor is a caller with the grants that reach articles. The library has
// no owners: moderators edit every article, a grant holder those a grant
// covers (a category branch, or one article), nobody else any.
type editor struct {
	p        auth.Principal
	branches []int64
	articles []int64
}

func (e *editor) mod() bool { return e.p.IsModerator() }

func (e *editor) hasGrants() bool { return len(e.branches) > 0 || len(e.articles) > 0 }

// editorOf reads the caller's grants (moderators need none).
func (s *Service) editorOf(ctx context.Context, p auth.Principal) (*editor, error) {
	held, err := identity.HeldBy(ctx, s.ports.Grants, p)
	if err != nil {
		return nil, err
	}
	return &editor{p: p, branches: held[identity.GrantCategory], articles: held[identity.GrantArticle]}, nil
}

// canEdit is can_edit_article: a moderator, an article grant on it, or a
// category grant whose branch holds its category.
func (s *Service) canEdit(ctx context.Context, e *editor, a *store.Article) (bool, error) {
	if e.mod() || slices.Contains(e.articles, a.ID) {
		return true, nil
	}
	if a.CategoryID == nil {
		return false, nil
	}
	return s.inBranches(ctx, e, *a.CategoryID)
}

// inBranches reports whether category id lies in one of e's branches.
func (s *Service) inBranches(ctx context.Context, e *editor, id int64) (bool, error) {
	for _, root := range e.branches {
		ok, err := s.ports.Categories.CategoryWithin(ctx, id, root)
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// editableCategories expands e's branches over the categories articles
// are filed under (the tree is small and lives in the bank).
func (s *Service) editableCategories(ctx context.Context, e *editor) ([]int64, error) {
	if len(e.branches) == 0 {
		return nil, nil
	}
	used, err := s.store.Categories(ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, id := range used {
		ok, err := s.inBranches(ctx, e, id)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, id)
		}
	}
	return out, nil
}

// readable loads an article the caller may read: published and unbinned
// for anyone, drafts for its editors, binned ones for moderators. Others
// get 404, so a learner cannot tell a draft from nothing.
func (s *Service) readable(ctx context.Context, p auth.Principal, a *store.Article, err error) (*store.Article, bool, error) {
	if db.IsNotFound(err) {
		return nil, false, notFound()
	}
	if err != nil {
		return nil, false, err
	}
	e, err := s.editorOf(ctx, p)
	if err != nil {
		return nil, false, err
	}
	edit, err := s.canEdit(ctx, e, a)
	if err != nil {
		return nil, false, err
	}
	switch {
	case a.DeletedAt != nil && !p.IsModerator():
		return nil, false, notFound()
	case a.Status != "published" && !edit:
		return nil, false, notFound()
	}
	return a, edit, nil
}

func notFound() error { return apperr.NotFoundf("article not found") }
