// Package feedback is where learners report problems with what they read
// and moderators work through the reports. It owns no content: every
// module whose Module implements Target (FeedbackKinds, FeedbackTarget)
// offers its kinds of thing to be reported, and checks the reporter may
// read the one they name.
package feedback

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/feedback/internal/app"
	feedbackhttp "github.com/roundsedu/rounds/modules/feedback/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the feedback section.
type Config = app.Config

// Target is what a module implements to let its things be reported.
type Target = app.Target

//go:embed config.yaml
var defaults []byte

// Module is the feedback bounded context.
type Module struct{ svc *app.Service }

// New builds the module; it collects every module that offers targets.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "feedback", defaults)
	if err != nil {
		return nil, err
	}
	targets := module.NeedKinds(k, Target.FeedbackKinds)
	return &Module{svc: app.New(k.DB, k.Limiter, targets, cfg)}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "feedback" }

// Routes registers the report operations.
func (m *Module) Routes(r *httpapi.Router) { feedbackhttp.Register(r, m.svc) }
