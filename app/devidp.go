package app

import (
	"log/slog"

	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/devidp"
)

// newDevIdP builds the development OpenID provider (devidp.enabled) with the
// seeded admin, moderator and learner accounts and this service registered
// as its client, so `go tool task up` signs people in with no external
// provider. Never enabled unless configured.
func newDevIdP(cfg config.DevIdP, id *identity.Module, log *slog.Logger) (*devidp.Provider, error) {
	oidc := id.OIDC()
	if oidc.Issuer != cfg.Issuer {
		log.Warn("devidp is enabled but oidc.issuer points elsewhere: sign-in will not use it",
			"oidc_issuer", oidc.Issuer, "devidp_issuer", cfg.Issuer)
	}
	log.Warn("the development identity provider is enabled: never do this in production", "issuer", cfg.Issuer)
	return devidp.New(devidp.Options{
		Issuer: cfg.Issuer,
		Clients: []devidp.Client{{ID: oidc.ClientID, Secret: oidc.ClientSecret,
			RedirectURIs:           []string{id.Callback()},
			PostLogoutRedirectURIs: []string{oidc.ClientURL}}},
		Accounts: devidp.SeedAccounts(),
		Log:      log,
	})
}
