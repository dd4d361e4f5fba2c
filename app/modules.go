package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/buildinfo"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Modules are the built bounded contexts.
type Modules struct {
	Identity *identity.Module
}

// buildModules constructs each module with the platform pieces and config
// section it owns, wires facades into the ports that need them, and
// registers routes, subscribers, jobs and schedules.
func buildModules(_ context.Context, p *Platform) (*Modules, error) {
	m := &Modules{}
	m.Identity = identity.New(identity.Deps{DB: p.DB, Log: p.Log})

	verifier := auth.NewVerifier(p.Signer, m.Identity, p.Config.Auth.RoleCacheTTL)
	p.HTTP = httpapi.New(httpapi.Options{Log: p.Log, Metrics: p.Metrics, Verifier: verifier})
	httpapi.RegisterHealth(p.HTTP.Router(), p.DB.Ping, buildinfo.String())
	return m, nil
}
