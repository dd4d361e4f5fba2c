package harness

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/devidp"
)

// The app's client registration at the test provider.
const (
	IdPClientID     = "rounds-e2e"
	IdPClientSecret = "e2e-client-secret"
	idpPassword     = "e2e-password"
)

// IdP is an in-process development OpenID provider (platform/devidp) on a
// loopback port: the app under test signs people in through it with the
// real protocol, and each sign-in returns the claims the test chose.
type IdP struct {
	*devidp.Provider
	cancel context.CancelFunc
	done   chan error
}

// StartIdP runs a provider on a free loopback port.
func StartIdP() (*IdP, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p, err := devidp.New(devidp.Options{Issuer: "http://" + ln.Addr().String()})
	if err != nil {
		ln.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	idp := &IdP{Provider: p, cancel: cancel, done: make(chan error, 1)}
	go func() { idp.done <- p.Serve(ctx, ln) }()
	return idp, nil
}

// Stop shuts the provider down.
func (p *IdP) Stop() error {
	p.cancel()
	return <-p.done
}

// WithSSO points the app's oidc settings at the provider and registers the
// app as its client. The app is pinned to a free loopback port first, so
// the callback URL is known before it starts. The callback sends the
// browser to <app>/signed-in?code=... (nothing serves that page: the test
// browser reads the code from the redirect). Set role mapping with a
// further WithConfig.
func WithSSO(p *IdP) Option {
	return func(s *setup) {
		s.idp = p
		s.configure = append(s.configure, withSSO(p))
	}
}

func withSSO(p *IdP) func(*config.Config) {
	return func(cfg *config.Config) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		cfg.HTTP.Addr = addr
		cfg.Service.PublicURL = "http://" + addr
		clientURL := "http://" + addr + "/signed-in"
		cfg.Set("oidc.issuer", p.Issuer())
		cfg.Set("oidc.client_id", IdPClientID)
		cfg.Set("oidc.client_secret", IdPClientSecret)
		cfg.Set("oidc.redirect_url", "")
		cfg.Set("oidc.client_url", clientURL)
		p.SetClient(devidp.Client{ID: IdPClientID, Secret: IdPClientSecret,
			RedirectURIs:           []string{"http://" + addr + "/api/v1/auth/sso/callback"},
			PostLogoutRedirectURIs: []string{clientURL}})
	}
}

// IdP is the provider the app signs people in through: its own, started
// with it, unless WithSSO gave it one; nil with WithoutSSO. A test sets the
// claims of a sign-in on it (SignIn, Browser.SignInAt).
func (h *Harness) IdP() *IdP { return h.idp }

// Browser is a cookie-keeping user agent that does not follow redirects,
// so a test can watch (and tamper with) each step of the sign-in.
type Browser struct {
	h       *Harness
	client  *http.Client
	headers http.Header
}

// browserSeq numbers the browsers, each with an address of its own.
var browserSeq atomic.Uint32

// Browser makes a fresh browser (no cookies). Each browser is a person at an
// address of their own (X-Forwarded-For from 198.18.0.0/15, the loopback
// peer being a trusted proxy), as people are: limits counted per address
// (GET /auth/sso/login) count each browser apart. With replaces it.
func (h *Harness) Browser() *Browser {
	jar, _ := cookiejar.New(nil)
	n := browserSeq.Add(1) % (1 << 17)
	headers := http.Header{}
	headers.Set("X-Forwarded-For", fmt.Sprintf("198.%d.%d.%d", 18+n>>16, n>>8&0xff, n&0xff))
	return &Browser{h: h, headers: headers, client: &http.Client{
		Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// With makes the browser send a header on every request (X-Forwarded-For
// for rate limits, X-Forwarded-Proto to look like https).
func (b *Browser) With(key, value string) *Browser {
	b.headers.Set(key, value)
	return b
}

// absolute resolves a path on the app, or returns an absolute URL as is.
func (b *Browser) absolute(raw string) string {
	if strings.HasPrefix(raw, "http://") || strings.HasPrefix(raw, "https://") {
		return raw
	}
	return b.h.BaseURL + raw
}

// Get loads a URL (absolute, or a path on the app).
func (b *Browser) Get(raw string) *Response { return b.do(http.MethodGet, raw, nil, "") }

// PostForm submits a form.
func (b *Browser) PostForm(raw string, form url.Values) *Response {
	return b.do(http.MethodPost, raw, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
}

// PostJSON posts a JSON body to the app.
func (b *Browser) PostJSON(path string, body any) *Response {
	data, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	return b.do(http.MethodPost, path, strings.NewReader(string(data)), "application/json")
}

func (b *Browser) do(method, raw string, body io.Reader, contentType string) *Response {
	req, err := http.NewRequestWithContext(context.Background(), method, b.absolute(raw), body)
	if err != nil {
		panic(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, vs := range b.headers {
		req.Header[k] = vs
	}
	res, err := b.client.Do(req)
	if err != nil {
		panic(fmt.Sprintf("%s %s: %v", method, raw, err))
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		panic(err)
	}
	out := &Response{Status: res.StatusCode, Header: res.Header, Body: data, Method: method, Path: req.URL.String()}
	if strings.HasPrefix(out.Path, b.h.BaseURL+"/") {
		b.h.checkAnswer(out)
	}
	return out
}

// Location is a redirect's target, resolved against the request URL.
func (r *Response) Location() string {
	loc := r.Header.Get("Location")
	if loc == "" {
		panic(fmt.Sprintf("%s %s: no Location (status %d)\nbody: %s", r.Method, r.Path, r.Status, r.Body))
	}
	base, err := url.Parse(r.Path)
	if err != nil {
		panic(err)
	}
	to, err := base.Parse(loc)
	if err != nil {
		panic(err)
	}
	return to.String()
}

func mustRedirect(r *Response, step string) string {
	if r.Status != http.StatusFound && r.Status != http.StatusSeeOther {
		panic(fmt.Sprintf("sign-in step %q: want a redirect from %s %s, got %d\nbody: %s", step, r.Method, r.Path, r.Status, r.Body))
	}
	return r.Location()
}

// StartLogin asks the app to sign in and returns the provider URL it sends
// the browser to (the binding cookie is now in the browser).
func (b *Browser) StartLogin() string {
	return mustRedirect(b.Get("/api/v1/auth/sso/login"), "login redirect")
}

// StartLoginWith starts signing in with the S256 challenge of verifier, as
// a native client does; the exchange may then prove the verifier
// (ExchangeVerified) instead of coming from this browser.
func (b *Browser) StartLoginWith(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return mustRedirect(b.Get("/api/v1/auth/sso/login?code_challenge="+base64.RawURLEncoding.EncodeToString(sum[:])),
		"login redirect")
}

// AuthenticateAt follows the provider URL to its login page and signs in
// there as an account carrying claims (created or replaced; the username is
// the email, or "anonymous" without one). It returns the app's callback URL
// the provider redirects to.
func (b *Browser) AuthenticateAt(p *IdP, authorizeURL string, claims devidp.Claims) string {
	return b.atLoginPage(p, authorizeURL, claims, "login")
}

// CancelAt follows the provider URL to its login page and cancels there;
// the returned callback URL carries error=access_denied.
func (b *Browser) CancelAt(p *IdP, authorizeURL string) string {
	return b.atLoginPage(p, authorizeURL, devidp.Claims{}, "cancel")
}

func (b *Browser) atLoginPage(p *IdP, authorizeURL string, claims devidp.Claims, action string) string {
	loginURL := mustRedirect(b.Get(authorizeURL), "provider authorize")
	page := b.Get(loginURL)
	if page.Status != http.StatusOK {
		panic(fmt.Sprintf("provider login page %s: status %d\nbody: %s", loginURL, page.Status, page.Body))
	}
	u, _ := url.Parse(loginURL)
	username := claims.Email
	if username == "" {
		username = "anonymous"
	}
	p.SetAccount(devidp.Account{Username: username, Password: idpPassword, Claims: claims})
	form := url.Values{"id": {u.Query().Get("authRequestID")}, "username": {username},
		"password": {idpPassword}, "action": {action}}
	next := mustRedirect(b.PostForm(p.Issuer()+"/login", form), "provider login form")
	if action == "cancel" {
		return next
	}
	return mustRedirect(b.Get(next), "provider callback")
}

// SignInAt runs the whole browser dance: login redirect, provider, login
// page, back to the app's callback. It returns the callback's response: a
// redirect to the client URL with ?code=, or the app's error.
func (b *Browser) SignInAt(p *IdP, claims devidp.Claims) *Response {
	return b.Get(b.AuthenticateAt(p, b.StartLogin(), claims))
}

// CodeFrom reads the one-time code from the callback's redirect.
func CodeFrom(callback *Response) string {
	to, err := url.Parse(mustRedirect(callback, "app callback"))
	if err != nil {
		panic(err)
	}
	code := to.Query().Get("code")
	if code == "" {
		panic("the callback's redirect carries no code: " + to.String())
	}
	return code
}

// Exchange trades a code at POST /auth/sso/exchange.
func (b *Browser) Exchange(code string, refresh bool, device string) *Response {
	body := map[string]any{"code": code}
	if refresh {
		body["refresh"] = true
	}
	if device != "" {
		body["device"] = device
	}
	return b.PostJSON("/api/v1/auth/sso/exchange", body)
}

// ExchangeVerified trades a code with the verifier of its sign-in's
// challenge (StartLoginWith).
func (b *Browser) ExchangeVerified(code, verifier string) *Response {
	return b.PostJSON("/api/v1/auth/sso/exchange", map[string]any{"code": code, "code_verifier": verifier})
}

// Token is a successful exchange or refresh.
type Token struct {
	AccessToken  string `json:"access_token"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	TokenType    string `json:"token_type"`
	// Cookies are the cookies the exchange set (the media cookie).
	Cookies []*http.Cookie `json:"-"`
}

// Client is a caller presenting the access token.
func (t *Token) Client(h *Harness) *Client { return h.As(t.AccessToken) }

// SignIn signs someone in through the real browser flow against the
// provider and exchanges the code; refresh asks for a refresh token too
// (device labels the session). It panics when a step goes wrong.
func (h *Harness) SignIn(p *IdP, claims devidp.Claims, refresh bool, device string) *Token {
	b := h.Browser()
	res := b.Exchange(CodeFrom(b.SignInAt(p, claims)), refresh, device)
	if res.Status != http.StatusOK {
		panic(fmt.Sprintf("exchange: status %d\nbody: %s", res.Status, res.Body))
	}
	var t Token
	res.JSON(&t)
	t.Cookies = (&http.Response{Header: res.Header}).Cookies()
	return &t
}
