// Package site is what the service says to the world outside its
// learning content: the contact form (stored, mailed to the admin, a
// captcha when configured, limited per address) with its admin inbox, and
// the landing page's live counts, which every module that has public
// things to count offers by implementing Counter.
package site

import (
	"context"
	_ "embed"
	"time"

	"github.com/roundsedu/rounds/modules/site/internal/app"
	sitehttp "github.com/roundsedu/rounds/modules/site/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the site section.
type Config = app.Config

// Counter is what a module implements to put live counts of its public
// things on the landing page (GET /public/stats): PublicCounts(ctx) returns
// them by name ("questions", "quizzes", "articles", "decks", "learners").
// The site finds every module that implements it; nothing is registered.
type Counter = app.Counter

//go:embed config.yaml
var defaults []byte

// Module is the site bounded context.
type Module struct{ svc *app.Service }

// New builds the module; it gathers the counts of every module that
// offers some.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "site", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.NeedAll(k, &ports.Counters)
	svc := app.New(app.Deps{DB: k.DB, Queue: k.Queue, Limiter: k.Limiter, Log: k.Log, Config: cfg, Ports: ports})
	return &Module{svc: svc}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "site" }

// Routes registers the contact form, its inbox and the public counts.
func (m *Module) Routes(r *httpapi.Router) { sitehttp.Register(r, m.svc) }

// Jobs handles the mail to the admin.
func (m *Module) Jobs(r *jobs.Runner) {
	jobs.Register(r, jobs.Kind[app.MailPayload]{Handle: m.svc.MailSubmission, Timeout: 2 * time.Minute})
}
