// Package labs is the table of lab reference values: learners read the
// published values, grouped into tabs; moderators add, replace, remove and
// publish them, point them at a library article section and link
// flashcards. The library and flashcards modules are optional ports: a
// module that implements Articles or Cards is found by the app.
package labs

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/labs/internal/app"
	labshttp "github.com/roundsedu/rounds/modules/labs/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the labs section.
type Config = app.Config

// Articles is what a library module implements to let values point at an
// article and one of its sections.
type Articles = app.Articles

// Cards is what a flashcards module implements to let cards be linked.
type Cards = app.Cards

//go:embed config.yaml
var defaults []byte

// Module is the labs bounded context.
type Module struct {
	svc   *app.Service
	cfg   Config
	ports *app.Ports
}

// New builds the module; it collects whichever modules check articles and
// cards (none until the library and flashcards modules are in the app).
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "labs", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.NeedAll(k, &ports.Articles)
	module.NeedAll(k, &ports.Cards)
	return &Module{svc: app.New(k.DB, ports), cfg: cfg, ports: ports}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "labs" }

// Routes registers the lab value operations.
func (m *Module) Routes(r *httpapi.Router) { labshttp.Register(r, m.svc) }

// Start loads the demo table when labs.seed_demo is on and it is empty.
func (m *Module) Start(ctx context.Context) error {
	if !m.cfg.SeedDemo {
		return nil
	}
	_, err := m.SeedDemo(ctx)
	return err
}

// SeedDemo loads the demo table if no value is stored and reports whether
// it did; safe to call from several replicas at once.
func (m *Module) SeedDemo(ctx context.Context) (bool, error) { return m.svc.SeedDemo(ctx) }

// SetPorts replaces the article and card checkers (tests stand in for the
// library and flashcards modules with fixed answers); nil leaves a port
// empty, so its ids are refused. It returns what puts the app's own back.
func (m *Module) SetPorts(a Articles, c Cards) (restore func()) {
	articles, cards := m.ports.Articles, m.ports.Cards
	m.ports.Articles, m.ports.Cards = nil, nil
	if a != nil {
		m.ports.Articles = []Articles{a}
	}
	if c != nil {
		m.ports.Cards = []Cards{c}
	}
	return func() { m.ports.Articles, m.ports.Cards = articles, cards }
}
