// Package analytics is item analysis for editors and peer comparison for
// learners: every completed timed attempt (attempts' event) adds to running
// sums per question version, from which facility, point-biserial
// discrimination of the item and of each option, and option selection
// rates are exact at any moment; and every score adds to its quiz's
// distribution, for a learner's percentile.
package analytics

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/analytics/internal/app"
	analyticshttp "github.com/roundsedu/rounds/modules/analytics/internal/http"
	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the analytics section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the analytics bounded context.
type Module struct{ svc *app.Service }

// New builds the module; it reads sittings from attempts and asks the bank
// who edits a question.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "analytics", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "attempts", &ports.Attempts)
	module.Need(k, "bank", &ports.Bank)
	return &Module{svc: app.New(k.DB, ports, cfg)}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "analytics" }

// Routes registers the analysis, flag and peer operations.
func (m *Module) Routes(r *httpapi.Router) { analyticshttp.Register(r, m.svc) }

// Subscribe counts every completed attempt once.
func (m *Module) Subscribe(b *events.Bus) {
	events.Subscribe(b, "analytics.count_attempt", attempts.TopicAttemptCompleted,
		func(ctx context.Context, e attempts.AttemptCompleted, _ events.Meta) error {
			return m.svc.Count(ctx, e.AttemptID)
		})
}

// CountAttempt adds a completed attempt to the statistics unless it was
// counted already: what the subscriber does, for operators replaying
// attempts (and tests proving a replay adds nothing).
func (m *Module) CountAttempt(ctx context.Context, attemptID int64) error {
	return m.svc.Count(ctx, attemptID)
}
