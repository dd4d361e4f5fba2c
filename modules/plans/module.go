// Package plans is study plans: ordered blocks of fixed question lists
// (with reading in mixed plans) that learners enrol in and work through,
// each block sat as the learner's saved test and completed when an attempt
// of it completes; and plans drawn from blueprints of weighted domains.
package plans

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/plans/internal/app"
	planshttp "github.com/roundsedu/rounds/modules/plans/internal/http"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the plans section.
type Config = app.Config

// SavedTests is what a module implements to build a learner's saved test of
// a block or an exam paper (the bank does).
type SavedTests = app.SavedTests

// Articles is what a library module implements to check reading links.
type Articles = app.Articles

//go:embed config.yaml
var defaults []byte

// Module is the plans bounded context.
type Module struct {
	svc   *app.Service
	ports *app.Ports
}

// New builds the module; it asks the bank for live questions and quizzes,
// and whichever modules build saved tests and check articles.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "plans", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "bank", &ports.Bank)
	module.Need(k, "attempts", &ports.Attempts)
	module.NeedAll(k, &ports.Decks)
	module.NeedAll(k, &ports.SavedTests)
	module.NeedAll(k, &ports.Articles)
	return &Module{svc: app.New(k.DB, ports, cfg), ports: ports}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "plans" }

// Routes registers the study plan and exam operations.
func (m *Module) Routes(r *httpapi.Router) {
	planshttp.Register(r, m.svc)
	planshttp.RegisterExams(r, m.svc)
}

// Subscribe completes a block, or records an exam result, when an attempt
// of its saved test completes (submitted, handed in or auto-closed); a
// redelivery changes nothing.
func (m *Module) Subscribe(b *events.Bus) {
	events.Subscribe(b, "plans.complete_block", attempts.TopicAttemptCompleted,
		func(ctx context.Context, e attempts.AttemptCompleted, _ events.Meta) error {
			return m.CompleteBlocks(ctx, e)
		})
}

// CompleteBlocks is what the subscriber does (tests replay an event).
func (m *Module) CompleteBlocks(ctx context.Context, e attempts.AttemptCompleted) error {
	if err := m.svc.Completed(ctx, e.UserID, e.QuizID, e.AttemptID, e.CompletedAt); err != nil {
		return err
	}
	return m.svc.RecordSitting(ctx, e.UserID, e.QuizID, e.AttemptID, e.CompletedAt)
}

// Decks is what a flashcards module implements to check deck links.
type Decks = app.Decks

// SetPorts replaces the optional saved-test builder, article and deck
// checkers (tests stand in for them or take them away); nil leaves a port
// empty. It returns what puts back the ports the app wired.
func (m *Module) SetPorts(t SavedTests, a Articles, d Decks) (restore func()) {
	wired := *m.ports
	m.ports.SavedTests, m.ports.Articles, m.ports.Decks = nil, nil, nil
	if t != nil {
		m.ports.SavedTests = []SavedTests{t}
	}
	if a != nil {
		m.ports.Articles = []Articles{a}
	}
	if d != nil {
		m.ports.Decks = []Decks{d}
	}
	return func() { *m.ports = wired }
}
