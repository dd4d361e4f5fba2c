// Package devidp is a small OpenID Connect provider for development and
// tests, built on zitadel/oidc's pkg/op. It speaks the real protocol
// (discovery, authorize with PKCE, token, userinfo, JWKS, end_session), keeps
// everything in memory, and signs people in through a plain login page with
// accounts whose claims the caller chooses. `rounds` starts it only when
// devidp.enabled is set; end-to-end suites run it in-process and set the
// claims each sign-in returns. Never expose it to the internet: its accounts
// and passwords are whatever the caller put in.
package devidp

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/op"
)

// Claims are what a sign-in of an account returns in the ID token and at
// the userinfo endpoint. Empty strings and nil values are left out, so a
// test can exercise a provider that omits a claim.
type Claims struct {
	Email string
	// EmailVerified is sent when set (an explicit false included).
	EmailVerified     *bool
	Name              string
	PreferredUsername string
	// Groups is sent as the "groups" claim when non-nil.
	Groups []string
	// Extra claims are sent as they are (a custom role claim, say).
	Extra map[string]any
}

// Account is a person who can sign in at the login page.
type Account struct {
	Username string
	Password string
	Claims   Claims
}

// Client is a relying party allowed to use the provider (a confidential web
// client authenticating with its secret).
type Client struct {
	ID                     string
	Secret                 string
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
	// UserinfoOnly keeps the email and profile claims out of the ID token
	// (they are at the userinfo endpoint only), as some providers do.
	UserinfoOnly bool
}

// Options build a provider.
type Options struct {
	// Issuer is the provider's public URL, as browsers and clients reach it.
	Issuer   string
	Clients  []Client
	Accounts []Account
	Log      *slog.Logger
}

// Provider is a running-ready OpenID provider; it is an http.Handler.
type Provider struct {
	issuer  string
	store   *storage
	op      *op.Provider
	handler http.Handler
	log     *slog.Logger
}

// New builds the provider with a fresh signing key.
func New(opts Options) (*Provider, error) {
	issuer := strings.TrimRight(opts.Issuer, "/")
	if issuer == "" {
		return nil, errors.New("devidp: issuer is required")
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	store, err := newStorage()
	if err != nil {
		return nil, err
	}
	for _, c := range opts.Clients {
		store.setClient(c)
	}
	for _, a := range opts.Accounts {
		store.setAccount(a)
	}
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return nil, err
	}
	provider, err := op.NewOpenIDProvider(issuer, &op.Config{
		CryptoKey:                key,
		DefaultLogoutRedirectURI: loggedOutPath,
		CodeMethodS256:           true,
		AuthMethodPost:           true,
	}, store, op.WithAllowInsecure())
	if err != nil {
		return nil, fmt.Errorf("devidp: %w", err)
	}
	p := &Provider{issuer: issuer, store: store, op: provider, log: log}
	p.handler = p.routes()
	return p, nil
}

// Issuer is the provider's URL.
func (p *Provider) Issuer() string { return p.issuer }

// SetAccount adds an account, or replaces the one with the same username
// (the next sign-in returns the new claims).
func (p *Provider) SetAccount(a Account) { p.store.setAccount(a) }

// SetClient registers a client, or replaces the one with the same id.
func (p *Provider) SetClient(c Client) { p.store.setClient(c) }

// ServeHTTP serves the protocol endpoints and the login page.
func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.handler.ServeHTTP(w, r) }

// Serve answers on ln until ctx ends, then shuts down gracefully.
func (p *Provider) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	err := srv.Serve(ln)
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

func (p *Provider) routes() http.Handler {
	mux := http.NewServeMux()
	interceptor := op.NewIssuerInterceptor(p.op.IssuerFromRequest)
	mux.HandleFunc("GET "+loginPath, p.loginPage)
	mux.Handle("POST "+loginPath, interceptor.HandlerFunc(p.loginSubmit))
	mux.HandleFunc("GET "+loggedOutPath, p.loggedOutPage)
	mux.Handle("/", p.op)
	return mux
}
