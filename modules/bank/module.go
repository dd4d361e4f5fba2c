// Package bank is the question bank: questions with their answer side,
// versions and trash; quizzes over them; the question-category tree, quiz
// categories, tags and favourites. Other modules reach it through the
// ports offers.go answers (Facade among them: one file lists them all) and
// learn about question changes from TopicQuestionChanged; the rules live in
// internal/app.
package bank

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	bankhttp "github.com/roundsedu/rounds/modules/bank/internal/http"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the bank section.
type Config struct {
	SeedDemo bool `mapstructure:"seed_demo"`
}

//go:embed config.yaml
var defaults []byte

// Module is the bank bounded context.
type Module struct {
	svc   *app.Service
	cfg   Config
	ports *app.Ports
}

// New builds the module; it asks identity for grants, search for ranking,
// attempts whether an attempt opens a question's answer side, the library
// (any module offering Reading) for "read more" articles, and the AI
// module for the keyword model that classifies tags.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "bank", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "identity", &ports.Grants)
	module.Need(k, "search", &ports.Search)
	module.Need(k, "attempts", &ports.Attempts)
	module.NeedAll(k, &ports.Reading)
	module.Need(k, "ai", &ports.Keywords)
	svc := app.New(app.Deps{DB: k.DB, Queue: k.Queue, Log: k.Log, Changes: publisher{bus: k.Bus}, Ports: ports})
	return &Module{svc: svc, cfg: cfg, ports: ports}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "bank" }

// Routes registers the bank's HTTP operations.
func (m *Module) Routes(r *httpapi.Router) { bankhttp.Register(r, m.svc) }

// Jobs registers tag classification (POST /tags/classify).
func (m *Module) Jobs(r *jobs.Runner) { m.svc.RegisterJobs(r) }

// SetSearch replaces the wired search facade; nil makes semantic and hybrid
// listing fall back to keyword (tests of that fallback).
func (m *Module) SetSearch(f search.Facade) { m.ports.Search = f }

// Start loads the demo bank when bank.seed_demo is on and the bank is empty.
func (m *Module) Start(ctx context.Context) error {
	if !m.cfg.SeedDemo {
		return nil
	}
	_, err := m.SeedDemo(ctx)
	return err
}

// Background keeps the quiz rows quiz reads open with fresh in memory
// while the process serves (docs/decisions/bank.md, "The quiz row in
// memory").
func (m *Module) Background(ctx context.Context) error { return m.svc.FollowQuizRows(ctx) }

// SeedDemo loads the demo bank if the bank is empty (no questions, quizzes
// or categories) and reports whether it did; safe to call from several
// replicas at once.
func (m *Module) SeedDemo(ctx context.Context) (bool, error) { return m.svc.SeedDemo(ctx) }
