// Package sso is identity's OpenID Connect relying party: discovery (lazy,
// so the service starts while the provider is down), the authorization URL
// with state, nonce and PKCE, the code exchange with ID token verification,
// and the end-session URL. It uses only standard protocol features, so any
// compliant provider works with the oidc.* settings alone.
package sso

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Settings are what the relying party needs.
type Settings struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	RedirectURL  string
	Scopes       []string
	// RoleClaim is fetched from userinfo when the ID token lacks it.
	RoleClaim string
}

// Client talks to the provider. The zero value is not usable: use New.
type Client struct {
	set  Settings
	http *http.Client

	mu       sync.Mutex
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	endpoint oauth2.Endpoint
	endSess  string
}

// New makes a client; nothing is fetched until the first sign-in.
func New(set Settings) *Client {
	return &Client{set: set, http: &http.Client{Timeout: 10 * time.Second}}
}

// Enabled reports whether a provider is configured.
func (c *Client) Enabled() bool { return c.set.Issuer != "" && c.set.ClientID != "" }

// discover fetches the provider's configuration once; a failure is retried
// at the next call.
func (c *Client) discover(ctx context.Context) (*oidc.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.provider != nil {
		return c.provider, nil
	}
	// The provider keeps this context for its key set: detach it from the request.
	pctx := oidc.ClientContext(context.WithoutCancel(ctx), c.http)
	p, err := oidc.NewProvider(pctx, c.set.Issuer)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.UpstreamFailed,
			Message: "the identity provider cannot be reached: " + oneLine(err)}
	}
	var extra struct {
		EndSession string `json:"end_session_endpoint"`
	}
	_ = p.Claims(&extra)
	c.provider, c.endpoint, c.endSess = p, p.Endpoint(), extra.EndSession
	c.verifier = p.Verifier(&oidc.Config{ClientID: c.set.ClientID})
	return p, nil
}

func (c *Client) oauth(endpoint oauth2.Endpoint) *oauth2.Config {
	return &oauth2.Config{ClientID: c.set.ClientID, ClientSecret: c.set.ClientSecret,
		RedirectURL: c.set.RedirectURL, Scopes: c.set.Scopes, Endpoint: endpoint}
}

// AuthURL is where the browser goes to sign in: the code flow with state,
// nonce and an S256 PKCE challenge of verifier.
func (c *Client) AuthURL(ctx context.Context, state, nonce, verifier string) (string, error) {
	if _, err := c.discover(ctx); err != nil {
		return "", err
	}
	return c.oauth(c.endpoint).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), nil
}

// Redeem trades the code for tokens, verifies the ID token (signature,
// issuer, audience, expiry, nonce) and returns its claims, completed from
// the userinfo endpoint when the ID token left out something we read.
func (c *Client) Redeem(ctx context.Context, code, verifier, nonce string) (map[string]any, error) {
	p, err := c.discover(ctx)
	if err != nil {
		return nil, err
	}
	hctx := oidc.ClientContext(ctx, c.http)
	tok, err := c.oauth(c.endpoint).Exchange(hctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
			msg := re.ErrorCode
			if re.ErrorDescription != "" {
				msg += ": " + re.ErrorDescription
			}
			return nil, apperr.BadRequestf("the identity provider refused the sign-in code (%s); start again", oneLine(errors.New(msg)))
		}
		return nil, &apperr.Error{Code: apperr.UpstreamFailed,
			Message: "the identity provider did not answer the code exchange: " + oneLine(err)}
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, apperr.BadRequestf("the identity provider returned no ID token: is the openid scope configured?")
	}
	idt, err := c.verifier.Verify(hctx, raw)
	if err != nil {
		return nil, apperr.BadRequestf("the identity provider's ID token failed verification: %s", oneLine(err))
	}
	if idt.Nonce != nonce {
		return nil, apperr.BadRequestf("the ID token does not answer this sign-in (nonce mismatch); start again")
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return nil, apperr.BadRequestf("the ID token's claims cannot be read: %s", oneLine(err))
	}
	if p.UserInfoEndpoint() != "" && c.incomplete(claims) {
		if err := mergeUserInfo(hctx, p, tok, idt.Subject, claims); err != nil {
			return nil, err
		}
	}
	return claims, nil
}

// incomplete reports an ID token without the email, any name, or the role
// claim: providers differ in what they put there rather than at userinfo.
func (c *Client) incomplete(claims map[string]any) bool {
	has := func(k string) bool { _, ok := claims[k]; return ok }
	if !has("email") || (!has("name") && !has("preferred_username")) {
		return true
	}
	if c.set.RoleClaim == "" || has(c.set.RoleClaim) {
		return false
	}
	first, _, _ := strings.Cut(c.set.RoleClaim, ".")
	return !has(first)
}

// mergeUserInfo adds the userinfo claims the ID token lacks (providers
// differ in what they put where). The ID token wins where both have a claim.
func mergeUserInfo(ctx context.Context, p *oidc.Provider, tok *oauth2.Token, subject string, claims map[string]any) error {
	info, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil {
		return &apperr.Error{Code: apperr.UpstreamFailed,
			Message: "the identity provider's userinfo endpoint failed: " + oneLine(err)}
	}
	if info.Subject != subject {
		return apperr.BadRequestf("the identity provider's userinfo is about someone else (subject mismatch)")
	}
	var more map[string]any
	if err := info.Claims(&more); err != nil {
		return apperr.BadRequestf("the userinfo claims cannot be read: %s", oneLine(err))
	}
	for k, v := range more {
		if _, ok := claims[k]; !ok {
			claims[k] = v
		}
	}
	return nil
}

// EndSessionURL is the provider's end-session endpoint with the client id
// and where to come back, or "" when the provider has none.
func (c *Client) EndSessionURL(ctx context.Context, postLogout string) (string, error) {
	if _, err := c.discover(ctx); err != nil {
		return "", err
	}
	if c.endSess == "" {
		return "", nil
	}
	u, err := url.Parse(c.endSess)
	if err != nil {
		return "", &apperr.Error{Code: apperr.UpstreamFailed, Message: "the identity provider's end_session_endpoint is not a URL"}
	}
	q := u.Query()
	q.Set("client_id", c.set.ClientID)
	if postLogout != "" {
		q.Set("post_logout_redirect_uri", postLogout)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// oneLine keeps provider messages to one short line.
func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
