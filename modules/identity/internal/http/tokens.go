package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

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

func (h *Handlers) registerTokens(r *httpapi.Router) {
	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodPost, Path: "/auth/refresh", Tags: tags("auth"),
		Summary:     "Trade a refresh token for a new pair",
		Description: "The old token is spent. Presenting a spent token again ends its whole session family. Limited per address per hour.",
		Errors:      []int{nethttp.StatusUnauthorized, nethttp.StatusTooManyRequests},
	}, func(ctx context.Context, in *tokenRefreshInput) (*struct{ Body Token }, error) {
		t, err := h.svc.Refresh(ctx, in.Body.RefreshToken, httpapi.ClientAddress(ctx))
		if err != nil {
			return nil, err
		}
		return &struct{ Body Token }{toToken(t)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/auth/logout", Tags: tags("auth"),
		Summary: "Sign out: end one session (by refresh token) or all of them",
		Description: "Access tokens stay valid until they expire; logout ends the ability to obtain another. " +
			"Also clears the media cookie. An unknown or foreign refresh token ends nothing.",
		DefaultStatus: nethttp.StatusNoContent,
	}, func(ctx context.Context, in *sessionLogoutInput) (*sessionLogoutOutput, error) {
		var token string
		var everywhere bool
		if in.Body != nil {
			token, everywhere = in.Body.RefreshToken, in.Body.Everywhere
		}
		if err := h.svc.Logout(ctx, auth.MustFrom(ctx).UserID, token, everywhere); err != nil {
			return nil, err
		}
		return &sessionLogoutOutput{SetCookie: h.mediaCookies(&in.Browser, "", -1)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/sessions", Tags: tags("auth"),
		Summary: "Your sessions: one row per device (family), not per rotation",
	}, func(ctx context.Context, in *sessionsInput) (*sessionsOutput, error) {
		rows, n, err := h.svc.Sessions(ctx, auth.MustFrom(ctx).UserID, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		out := &sessionsOutput{Total: total(n), Body: make([]SessionResponse, len(rows))}
		for i, s := range rows {
			out.Body[i] = SessionResponse{Family: s.ID, Device: s.Device, CreatedAt: s.CreatedAt,
				LastUsedAt: s.LastUsedAt, ExpiresAt: s.ExpiresAt}
		}
		return out, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/auth/sessions/{family}", Tags: tags("auth"),
		Summary:       "End one of your sessions",
		DefaultStatus: nethttp.StatusNoContent, Errors: []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *familyInput) (*struct{}, error) {
		return nil, h.svc.EndSession(ctx, auth.MustFrom(ctx).UserID, in.Family)
	})
}
