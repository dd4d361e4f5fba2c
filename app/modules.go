package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/buildinfo"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Modules are the built bounded contexts.
type Modules struct {
	Identity *identity.Module
	Bank     *bank.Module
	Search   *search.Module
	Drafts   *drafts.Module
	Attempts *attempts.Module
}

// buildModules constructs each module with the platform pieces and config
// section it owns, wires facades into the ports that need them, and
// registers routes, subscribers, jobs and schedules.
func buildModules(ctx context.Context, p *Platform) (*Modules, error) {
	m := &Modules{}
	// The media cookie carries its own token (issuer <name>_media): it opens
	// /uploads only and is refused as a bearer token everywhere else.
	mediaSigner := auth.NewSigner(p.Config.Auth.TokenSecret, httpapi.MediaCookieName(p.Config.Service.Name))
	m.Identity = identity.New(identity.Deps{DB: p.DB, Log: p.Log, Bus: p.Bus, Limiter: p.Limiter,
		Signer: p.Signer, MediaSigner: mediaSigner, OIDC: p.Config.OIDC, Config: p.Config.Identity,
		ServiceName: p.Config.Service.Name, PublicURL: p.Config.Service.PublicURL})

	verifier := auth.NewVerifier(p.Signer, m.Identity, p.Config.Auth.RoleCacheTTL)
	mediaVerifier := auth.NewVerifier(mediaSigner, m.Identity, p.Config.Auth.RoleCacheTTL)
	m.Identity.UseVerifiers(verifier, mediaVerifier)
	p.HTTP = httpapi.New(httpapi.Options{Log: p.Log, Metrics: p.Metrics, Verifier: verifier,
		MediaCookie: httpapi.MediaCookieName(p.Config.Service.Name), MediaVerifier: mediaVerifier})
	httpapi.RegisterHealth(p.HTTP.Router(), p.DB.Ping, buildinfo.String())
	m.Identity.Routes(p.HTTP.Router())

	// search is built before bank: bank ranks through its facade.
	var err error
	m.Search, err = search.New(ctx, search.Deps{DB: p.DB, Log: p.Log, Config: p.Config.Search, Queue: p.Queue})
	if err != nil {
		return nil, err
	}
	m.Search.Routes(p.HTTP.Router())
	m.Search.Subscribe(p.Bus)
	m.Search.Jobs(p.Runner)
	m.Search.Schedule(p.Scheduler)

	// bank: grants from identity, ranking through search; attempts plugs
	// its AttemptAccess in with m.Bank.SetAttempts (below).
	m.Bank = bank.New(bank.Deps{DB: p.DB, Bus: p.Bus, Log: p.Log, Config: p.Config.Bank,
		Grants: m.Identity, Search: m.Search})
	m.Bank.Routes(p.HTTP.Router())
	m.Bank.Subscribe(p.Bus)
	if err := m.Bank.Start(ctx); err != nil {
		return nil, err
	}

	// drafts files accepted drafts into the bank through its facade.
	m.Drafts = drafts.New(drafts.Deps{DB: p.DB, Storage: p.Storage, Queue: p.Queue, Bank: m.Bank,
		Config: p.Config.Drafts, Log: p.Log})
	m.Drafts.Routes(p.HTTP.Router())
	m.Drafts.Jobs(p.Runner)

	// attempts sits quizzes from the bank; the bank asks it whether an
	// attempt opens a question's answer side (AttemptAccess). Its sweep is
	// the fourth scheduled job (attempts_maintenance).
	m.Attempts = attempts.New(attempts.Deps{DB: p.DB, Bus: p.Bus, Log: p.Log, Config: p.Config.Attempts,
		Bank: m.Bank, Users: m.Identity})
	m.Attempts.SetDocuments(m.Drafts)
	m.Attempts.Routes(p.HTTP.Router())
	m.Attempts.Subscribe(p.Bus)
	m.Attempts.Schedule(p.Scheduler)
	m.Bank.SetAttempts(m.Attempts)
	return m, nil
}
