// Package library is the articles of the service: ordered sections with
// stable ids rendered from markdown on save, revisions, slugs that keep
// resolving after a rename, the bin, cross-references between articles,
// and per-section search indexing through the search module's index
// contract. It asks identity for grants and the bank for the category
// tree.
package library

import (
	"context"
	_ "embed"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/library/internal/app"
	libraryhttp "github.com/roundsedu/rounds/modules/library/internal/http"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// Config is the library section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the library bounded context.
type Module struct {
	svc *app.Service
	cfg Config
}

// New builds the module.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "library", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "identity", &ports.Grants)
	module.Need(k, "bank", &ports.Categories)
	module.Need(k, "search", &ports.Search)
	module.Need(k, "ai", &ports.Writer)
	module.Need(k, "bank", &ports.Questions)
	module.Need(k, "flashcards", &ports.Decks)
	svc := app.New(app.Deps{DB: k.DB, Bus: k.Bus, Queue: k.Queue, Ports: ports, Config: cfg, Log: k.Log})
	return &Module{svc: svc, cfg: cfg}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "library" }

// Routes registers the article operations.
func (m *Module) Routes(r *httpapi.Router) { libraryhttp.Register(r, m.svc) }

// Subscribe keeps the library's copy of where questions are filed, and
// their "read more" links, in step with the bank.
func (m *Module) Subscribe(b *events.Bus) {
	events.Subscribe(b, "library.question_filings", bank.TopicQuestionChanged,
		func(ctx context.Context, e bank.QuestionChanged, _ events.Meta) error {
			return m.svc.OnQuestionChanged(ctx, e.ID, e.CategoryID, e.Live, e.Version)
		})
}

// Schedule queues apply_topic_claims from the scheduler leader.
func (m *Module) Schedule(s *scheduler.Scheduler) {
	s.EveryQueued(app.TaskApplyTopicClaims, m.cfg.ClaimsEvery, m.svc.ApplyTopicClaims)
}

// ApplyTopicClaims runs the scheduled job once (operators and tests).
func (m *Module) ApplyTopicClaims(ctx context.Context) error { return m.svc.ApplyTopicClaims(ctx) }

// Jobs handles the article generation jobs: a few model calls each, an
// author waiting on them.
func (m *Module) Jobs(r *jobs.Runner) {
	jobs.Register(r, jobs.Kind[app.GenerateDraft]{Handle: m.svc.RunDraft, Timeout: generationTimeout})
	jobs.Register(r, jobs.Kind[app.GenerateCards]{Handle: m.svc.RunCards, Timeout: generationTimeout})
}

// generationTimeout bounds one article generation.
const generationTimeout = 15 * time.Minute

// PublicCounts offers the landing page the number of published articles
// (the site module's Counter).
func (m *Module) PublicCounts(ctx context.Context) (map[string]int64, error) {
	return m.svc.PublicCounts(ctx)
}

// Kinds are the search index kinds the library owns (search.Reach): each
// article section is an item.
func (m *Module) Kinds() []search.Kind { return []search.Kind{search.KindArticle} }

// Reachable implements search.Reach for article sections.
func (m *Module) Reachable(ctx context.Context, p auth.Principal, _ search.Kind, ids []int64) (visible, editable map[int64]bool, err error) {
	return m.svc.ReachableSections(ctx, p, ids)
}

var _ search.Reach = (*Module)(nil)

// FeedbackKinds names what learners may report in the library (the
// feedback module's Target).
func (m *Module) FeedbackKinds() []string { return []string{"article"} }

// FeedbackTarget checks the caller may read the article they report and
// gives its title.
func (m *Module) FeedbackTarget(ctx context.Context, p auth.Principal, _ string, id int64) (string, error) {
	return m.svc.FeedbackTitle(ctx, p, id)
}
