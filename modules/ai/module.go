// Package ai is where Rounds reaches models: which model performs which
// task (admins), one gateway to an OpenAI-compatible proxy, the tutor beside
// a question, speech, and usage for quotas.
package ai

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	aihttp "github.com/roundsedu/rounds/modules/ai/internal/http"
	"github.com/roundsedu/rounds/modules/drafts/extraction"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the ai section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the AI bounded context.
type Module struct {
	svc   *app.Service
	rater *app.Rater
}

// New builds the module; it asks the bank for questions, search for
// similar ones and AI Mode's shortlist, the library where a found section
// belongs and what it publishes on a question, and attempts for the
// learner's own record.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "ai", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "bank", &ports.Bank)
	module.Need(k, "search", &ports.Search)
	module.Need(k, "library", &ports.Library)
	module.Need(k, "attempts", &ports.Attempts)
	gw := &gateway.Gateway{Timeout: cfg.Timeout, Retries: cfg.Retries}
	svc, err := app.New(k.DB, k.Limiter, k.Settings, gw, ports, cfg, k.Log)
	if err != nil {
		return nil, err
	}
	rater := app.NewRater(svc, k.Queue)
	module.Need(k, "bank", &rater.Bank)
	return &Module{svc: svc, rater: rater}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "ai" }

// Extractor implements drafts' extraction.Models: the extraction models
// read PDF sections for the drafts pipeline.
func (m *Module) Extractor(ctx context.Context, model, readingMode string) (extraction.Extractor, error) {
	return m.svc.Extractor(ctx, model, readingMode)
}

var _ extraction.Models = (*Module)(nil)

// Embed and Rerank implement search.Models: search's models go through
// the gateway.
func (m *Module) Embed(ctx context.Context, model string, texts []string) ([][]float64, error) {
	return m.svc.Embed(ctx, model, texts)
}

// Rerank implements search.Models.
func (m *Module) Rerank(ctx context.Context, model, query string, docs []string) ([]float64, error) {
	return m.svc.Rerank(ctx, model, query, docs)
}

var _ search.Models = (*Module)(nil)

// Routes registers the AI operations.
func (m *Module) Routes(r *httpapi.Router) {
	aihttp.Register(r, m.svc, m.rater)
}
