package http

import (
	"context"
	nethttp "net/http"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type tokenRefreshInput struct {
	Body struct {
		RefreshToken string `json:"refresh_token" minLength:"1" maxLength:"512"`
	}
}

type sessionLogoutInput struct {
	Body *struct {
		RefreshToken string `json:"refresh_token,omitempty" maxLength:"512" doc:"end the session this refresh token belongs to"`
		Everywhere   bool   `json:"everywhere,omitempty" doc:"end every session of the account"`
	}
	Browser Browser
}

type sessionLogoutOutput struct {
	SetCookie []nethttp.Cookie `header:"Set-Cookie"`
}

type sessionsInput struct {
	Page
}

type sessionsOutput struct {
	Total string `header:"X-Total-Count"`
	Body  []SessionResponse
}

type familyInput struct {
	Family string `path:"family" minLength:"1" maxLength:"64"`
}

type refreshOut struct{ Body Token }

func (h *Handlers) refresh(ctx context.Context, in *tokenRefreshInput) (*refreshOut, error) {
	t, err := h.svc.Refresh(ctx, in.Body.RefreshToken, httpapi.ClientAddress(ctx))
	if err != nil {
		return nil, err
	}
	return &refreshOut{toToken(t)}, nil
}

func (h *Handlers) logout(ctx context.Context, in *sessionLogoutInput) (*sessionLogoutOutput, error) {
	var token string
	var everywhere bool
	if in.Body != nil {
		token, everywhere = in.Body.RefreshToken, in.Body.Everywhere
	}
	if err := h.svc.Logout(ctx, auth.MustFrom(ctx).UserID, token, everywhere); err != nil {
		return nil, err
	}
	return &sessionLogoutOutput{SetCookie: h.mediaCookies(&in.Browser, "", -1)}, nil
}

func (h *Handlers) sessions(ctx context.Context, in *sessionsInput) (*sessionsOutput, error) {
	rows, n, err := h.svc.Sessions(ctx, auth.MustFrom(ctx).UserID, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &sessionsOutput{Total: total(n), Body: toSessionResponses(rows)}, nil
}

func (h *Handlers) endSession(ctx context.Context, in *familyInput) (*struct{}, error) {
	return nil, h.svc.EndSession(ctx, auth.MustFrom(ctx).UserID, in.Family)
}
