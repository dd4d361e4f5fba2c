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
func newDevIdP(cfg *config.Config, log *slog.Logger) (*devidp.Provider, error) {
	if cfg.OIDC.Issuer != cfg.DevIdP.Issuer {
		log.Warn("devidp is enabled but oidc.issuer points elsewhere: sign-in will not use it",
			"oidc_issuer", cfg.OIDC.Issuer, "devidp_issuer", cfg.DevIdP.Issuer)
	}
	log.Warn("the development identity provider is enabled: never do this in production",
		"issuer", cfg.DevIdP.Issuer)
	return devidp.New(devidp.Options{
		Issuer: cfg.DevIdP.Issuer,
		Clients: []devidp.Client{{ID: cfg.OIDC.ClientID, Secret: cfg.OIDC.ClientSecret,
			RedirectURIs:           []string{identity.CallbackURL(cfg.Service.PublicURL, cfg.OIDC)},
			PostLogoutRedirectURIs: []string{cfg.OIDC.ClientURL}}},
		Accounts: devidp.SeedAccounts(),
		Log:      log,
	})
}
