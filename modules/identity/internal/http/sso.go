package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// SSOConfig answers GET /auth/sso/config.
type SSOConfig struct {
	Available   bool   `json:"available" doc:"whether an identity provider is configured"`
	LoginMode   string `json:"login_mode" enum:"sso" doc:"sso: the only way in is the provider's sign-in (no passwords)"`
	LoginURL    string `json:"login_url" doc:"navigate the browser here to sign in"`
	LogoutURL   string `json:"logout_url" doc:"navigate the browser here to sign out at the provider"`
	RoleMapping bool   `json:"role_mapping" doc:"roles come from the provider's groups; in-app role changes answer 409"`
}

type redirect struct {
	Status    int
	Location  string           `header:"Location"`
	SetCookie []nethttp.Cookie `header:"Set-Cookie"`
}

type loginInput struct {
	Browser Browser
}

type startLoginInput struct {
	CodeChallenge string `query:"code_challenge" maxLength:"43" doc:"optional: the S256 challenge (SHA-256 in base64url, no padding) of a code_verifier the client keeps and sends to POST /auth/sso/exchange; a client without this browser's cookie (a native app) must send it"`
	Browser       Browser
}

type callbackInput struct {
	Code             string `query:"code" maxLength:"4096"`
	State            string `query:"state" maxLength:"512"`
	Error            string `query:"error" maxLength:"256"`
	ErrorDescription string `query:"error_description" maxLength:"1024"`
	Browser          Browser
}

type ssoExchangeInput struct {
	Body struct {
		Code         string `json:"code" minLength:"1" maxLength:"512" doc:"the one-time code from the callback redirect"`
		CodeVerifier string `json:"code_verifier,omitempty" maxLength:"128" doc:"the verifier whose S256 challenge was given at GET /auth/sso/login; without it the exchange must come from the browser that started the sign-in (its cookie)"`
		Refresh      bool   `json:"refresh,omitempty" doc:"also issue a refresh token (native clients; browsers should not)"`
		Device       string `json:"device,omitempty" maxLength:"100" doc:"label of the device, shown in the session list"`
	}
	Browser Browser
}

type tokenOutput struct {
	SetCookie []nethttp.Cookie `header:"Set-Cookie"`
	Body      Token
}

type ssoConfigOut struct{ Body SSOConfig }

func (h *Handlers) ssoConfig(context.Context, *struct{}) (*ssoConfigOut, error) {
	info := h.svc.SSOInfo()
	return &ssoConfigOut{SSOConfig{Available: info.Available, LoginMode: "sso",
		LoginURL: httpapi.Prefix + "/auth/sso/login", LogoutURL: httpapi.Prefix + "/auth/sso/logout",
		RoleMapping: info.RoleMapping}}, nil
}

func (h *Handlers) startLogin(ctx context.Context, in *startLoginInput) (*redirect, error) {
	to, binding, err := h.svc.BeginLogin(ctx, app.Login{Browser: in.Browser.cookie(h.loginCookie),
		Challenge: in.CodeChallenge, Address: httpapi.ClientAddress(ctx)})
	if err != nil {
		return nil, err
	}
	c := h.cookie(&in.Browser, h.loginCookie, binding, "/api", int(app.LoginTTL/time.Second))
	return &redirect{Status: nethttp.StatusFound, Location: to, SetCookie: []nethttp.Cookie{c}}, nil
}

func (h *Handlers) callback(ctx context.Context, in *callbackInput) (*redirect, error) {
	to, err := h.svc.FinishLogin(ctx, app.Callback{State: in.State, Code: in.Code, Error: in.Error,
		ErrorDescription: in.ErrorDescription, Browser: in.Browser.cookie(h.loginCookie)})
	if err != nil {
		return nil, err
	}
	return &redirect{Status: nethttp.StatusFound, Location: to}, nil
}

func (h *Handlers) exchange(ctx context.Context, in *ssoExchangeInput) (*tokenOutput, error) {
	b := in.Body
	t, err := h.svc.Exchange(ctx, app.CodeExchange{Code: b.Code, Browser: in.Browser.cookie(h.loginCookie),
		Verifier: b.CodeVerifier, Refresh: b.Refresh, Device: b.Device})
	if err != nil {
		return nil, err
	}
	return &tokenOutput{SetCookie: h.mediaCookies(&in.Browser, t.MediaToken, t.ExpiresIn), Body: toToken(t)}, nil
}

func (h *Handlers) ssoLogout(ctx context.Context, in *loginInput) (*redirect, error) {
	to, err := h.svc.LogoutURL(ctx)
	if err != nil {
		return nil, err
	}
	return &redirect{Status: nethttp.StatusFound, Location: to, SetCookie: h.mediaCookies(&in.Browser, "", -1)}, nil
}
