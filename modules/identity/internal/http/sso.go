package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
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

func (h *Handlers) registerSSO(r *httpapi.Router) {
	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/sso/config", Tags: tags("auth"),
		Summary: "Whether single sign-on is available, and the login mode",
	}, func(context.Context, *struct{}) (*struct{ Body SSOConfig }, error) {
		info := h.svc.SSOInfo()
		return &struct{ Body SSOConfig }{SSOConfig{Available: info.Available, LoginMode: "sso",
			LoginURL: httpapi.Prefix + "/auth/sso/login", LogoutURL: httpapi.Prefix + "/auth/sso/logout",
			RoleMapping: info.RoleMapping}}, nil
	})

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/sso/login", Tags: tags("auth"),
		Summary: "Start signing in at the identity provider",
		Description: "Redirects to the provider with state, nonce and a PKCE challenge; the state is bound to this " +
			"browser by a short-lived cookie, and the one-time code the sign-in ends with to this browser or to the " +
			"client's code_challenge. 300 per caller address per hour (429 beyond).",
		DefaultStatus: nethttp.StatusFound,
		Errors:        []int{nethttp.StatusTooManyRequests, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *startLoginInput) (*redirect, error) {
		to, binding, err := h.svc.BeginLogin(ctx, app.Login{Browser: in.Browser.cookie(h.loginCookie),
			Challenge: in.CodeChallenge, Address: httpapi.ClientAddress(ctx)})
		if err != nil {
			return nil, err
		}
		c := h.cookie(&in.Browser, h.loginCookie, binding, "/api", int(app.LoginTTL/time.Second))
		return &redirect{Status: nethttp.StatusFound, Location: to, SetCookie: []nethttp.Cookie{c}}, nil
	})

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/sso/callback", Tags: tags("auth"),
		Summary:       "Where the identity provider returns the browser",
		Description:   "Matches or creates the account by email, applies the role, and redirects to the client with a one-time code (60 s).",
		DefaultStatus: nethttp.StatusFound,
		Errors:        []int{nethttp.StatusBadRequest, nethttp.StatusForbidden, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *callbackInput) (*redirect, error) {
		to, err := h.svc.FinishLogin(ctx, app.Callback{State: in.State, Code: in.Code, Error: in.Error,
			ErrorDescription: in.ErrorDescription, Browser: in.Browser.cookie(h.loginCookie)})
		if err != nil {
			return nil, err
		}
		return &redirect{Status: nethttp.StatusFound, Location: to}, nil
	})

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodPost, Path: "/auth/sso/exchange", Tags: tags("auth"),
		Summary: "Trade the one-time code for a token",
		Description: "A code works once and for 60 seconds, and only for the client that started its sign-in: the " +
			"same browser (its sign-in cookie, sent by itself) or the code_verifier of the sign-in's code_challenge; " +
			"any other caller is refused (400) and the code is spent. Also sets the media cookie for /uploads and " +
			"(admins) the job UI at /admin/jobs.",
		Errors: []int{nethttp.StatusBadRequest},
	}, func(ctx context.Context, in *ssoExchangeInput) (*tokenOutput, error) {
		b := in.Body
		t, err := h.svc.Exchange(ctx, app.CodeExchange{Code: b.Code, Browser: in.Browser.cookie(h.loginCookie),
			Verifier: b.CodeVerifier, Refresh: b.Refresh, Device: b.Device})
		if err != nil {
			return nil, err
		}
		return &tokenOutput{SetCookie: h.mediaCookies(&in.Browser, t.MediaToken, t.ExpiresIn), Body: toToken(t)}, nil
	})

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/sso/logout", Tags: tags("auth"),
		Summary:       "Sign out at the identity provider",
		Description:   "Redirects to the provider's end-session endpoint, which returns to the client.",
		DefaultStatus: nethttp.StatusFound, Errors: []int{nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *loginInput) (*redirect, error) {
		to, err := h.svc.LogoutURL(ctx)
		if err != nil {
			return nil, err
		}
		return &redirect{Status: nethttp.StatusFound, Location: to, SetCookie: h.mediaCookies(&in.Browser, "", -1)}, nil
	})
}
