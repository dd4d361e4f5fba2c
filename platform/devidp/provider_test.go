package devidp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/roundsedu/rounds/platform/devidp"
)

const redirect = "http://app.test/callback"

// flow runs the code flow with PKCE for an account and returns the
// verified ID token's claims and the userinfo claims.
func flow(t *testing.T, srv *httptest.Server, p *devidp.Provider, username, password string) (idClaims, infoClaims map[string]any, status int) {
	t.Helper()
	ctx := oidc.ClientContext(context.Background(), srv.Client())
	op, err := oidc.NewProvider(ctx, p.Issuer())
	if err != nil {
		t.Fatal(err)
	}
	conf := &oauth2.Config{ClientID: "app", ClientSecret: "s3cret", RedirectURL: redirect,
		Endpoint: op.Endpoint(), Scopes: []string{oidc.ScopeOpenID, "email", "profile"}}
	verifier := oauth2.GenerateVerifier()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	res, err := client.Get(conf.AuthCodeURL("st", oidc.Nonce("n0"), oauth2.S256ChallengeOption(verifier)))
	if err != nil || res.StatusCode != http.StatusFound {
		t.Fatalf("authorize: %v %v", err, res.Status)
	}
	login, _ := url.Parse(srv.URL + res.Header.Get("Location"))
	res, err = client.PostForm(srv.URL+"/login", url.Values{"id": {login.Query().Get("authRequestID")},
		"username": {username}, "password": {password}, "action": {"login"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusFound {
		return nil, nil, res.StatusCode
	}
	res, err = client.Get(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound {
		t.Fatalf("authorize callback: %v %v", err, res.Status)
	}
	back, _ := url.Parse(res.Header.Get("Location"))
	if back.Query().Get("state") != "st" {
		t.Fatalf("state not returned: %s", back)
	}
	tok, err := conf.Exchange(ctx, back.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	idt, err := op.Verifier(&oidc.Config{ClientID: "app"}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	if idt.Nonce != "n0" {
		t.Fatalf("nonce %q", idt.Nonce)
	}
	_ = idt.Claims(&idClaims)
	info, err := op.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatal(err)
	}
	_ = info.Claims(&infoClaims)
	return idClaims, infoClaims, http.StatusFound
}

func TestCodeFlow(t *testing.T) {
	var p *devidp.Provider
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.ServeHTTP(w, r) }))
	defer srv.Close()
	unverified := false
	var err error
	p, err = devidp.New(devidp.Options{Issuer: srv.URL,
		Clients: []devidp.Client{{ID: "app", Secret: "s3cret", RedirectURIs: []string{redirect},
			PostLogoutRedirectURIs: []string{"http://app.test/"}}},
		Accounts: append(devidp.SeedAccounts(), devidp.Account{Username: "u", Password: "p", Claims: devidp.Claims{
			Email: "u@x.test", EmailVerified: &unverified, Extra: map[string]any{"roles": []string{"r"}}}}),
	})
	if err != nil {
		t.Fatal(err)
	}

	id, info, _ := flow(t, srv, p, "admin", "admin")
	for _, claims := range []map[string]any{id, info} {
		if claims["email"] != "admin@rounds.test" || claims["email_verified"] != true || claims["name"] != "Ada Admin" {
			t.Errorf("admin claims: %v", claims)
		}
		if g, _ := claims["groups"].([]any); len(g) != 1 || g[0] != devidp.AdminGroup {
			t.Errorf("admin groups: %v", claims["groups"])
		}
	}

	id, _, _ = flow(t, srv, p, "u", "p")
	if v, ok := id["email_verified"]; !ok || v != false {
		t.Errorf("an explicit false must be sent: %v", id)
	}
	if _, ok := id["name"]; ok {
		t.Errorf("an empty name must be left out: %v", id)
	}
	if r, _ := id["roles"].([]any); len(r) != 1 {
		t.Errorf("extra claims: %v", id)
	}

	// Claims replaced for the next sign-in.
	p.SetAccount(devidp.Account{Username: "u", Password: "p", Claims: devidp.Claims{Email: "new@x.test"}})
	if id, _, _ = flow(t, srv, p, "u", "p"); id["email"] != "new@x.test" {
		t.Errorf("replaced claims: %v", id)
	}

	if _, _, status := flow(t, srv, p, "admin", "wrong"); status != http.StatusUnauthorized {
		t.Errorf("wrong password: status %d", status)
	}
}

func TestEndSessionAndDiscovery(t *testing.T) {
	var p *devidp.Provider
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.ServeHTTP(w, r) }))
	defer srv.Close()
	var err error
	p, err = devidp.New(devidp.Options{Issuer: srv.URL, Clients: []devidp.Client{{ID: "app", Secret: "s",
		RedirectURIs: []string{redirect}, PostLogoutRedirectURIs: []string{"http://app.test/"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var disc struct {
		Issuer     string   `json:"issuer"`
		EndSession string   `json:"end_session_endpoint"`
		JWKS       string   `json:"jwks_uri"`
		PKCE       []string `json:"code_challenge_methods_supported"`
	}
	op, err := oidc.NewProvider(oidc.ClientContext(context.Background(), srv.Client()), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Claims(&disc); err != nil {
		t.Fatal(err)
	}
	if disc.Issuer != srv.URL || disc.EndSession == "" || disc.JWKS == "" || !strings.Contains(strings.Join(disc.PKCE, ","), "S256") {
		t.Fatalf("discovery: %+v", disc)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(disc.EndSession + "?client_id=app&post_logout_redirect_uri=" + url.QueryEscape("http://app.test/"))
	if err != nil || res.StatusCode != http.StatusFound || res.Header.Get("Location") != "http://app.test/" {
		t.Fatalf("end session: %v %v %q", err, res.Status, res.Header.Get("Location"))
	}
	res, err = client.Get(disc.EndSession + "?client_id=app&post_logout_redirect_uri=" + url.QueryEscape("http://evil.test/"))
	if err != nil || res.StatusCode == http.StatusFound && res.Header.Get("Location") == "http://evil.test/" {
		t.Fatalf("end session must refuse an unregistered return address: %v", res.Header.Get("Location"))
	}
}
