// Package share makes read-only links to published things that anyone with
// the link may open without signing in. It owns no content: every module
// whose Module implements Target (ShareKinds, ShareTarget, SharedView)
// offers its kinds of thing, checks who may share one, and says what a
// visitor sees.
package share

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/share/internal/app"
	sharehttp "github.com/roundsedu/rounds/modules/share/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the share section.
type Config = app.Config

// Target is what a module implements to let its things be shared.
type Target = app.Target

//go:embed config.yaml
var defaults []byte

// Module is the share bounded context.
type Module struct{ svc *app.Service }

// New builds the module; it collects every module that offers targets.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "share", defaults)
	if err != nil {
		return nil, err
	}
	targets := module.NeedKinds(k, Target.ShareKinds)
	return &Module{svc: app.New(k.DB, k.Limiter, targets, cfg)}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "share" }

// Routes registers the share operations.
func (m *Module) Routes(r *httpapi.Router) { sharehttp.Register(r, m.svc) }
