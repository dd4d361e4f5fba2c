package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

const ssoHint = "accounts exist only through single sign-on: start at GET /api/v1/auth/sso/login"

// registerClosed declares the password-era routes. POST /auth/login answers
// 410 and POST /auth/reset-password 404, as the spec says; the older
// listing's register, verify-email, resend-verification and
// forgot-password answer 410 too, so an old client learns why rather than
// meeting a bare "no such route".
func (h *Handlers) registerClosed(r *httpapi.Router) {
	gone := func(method, path, summary string) {
		httpapi.Register(r, auth.Public, huma.Operation{
			Method: method, Path: path, Tags: tags("auth"), Summary: summary + " (closed: 410 always)",
			Deprecated: true, DefaultStatus: nethttp.StatusGone,
		}, func(context.Context, *struct{}) (*struct{}, error) {
			return nil, apperr.Gone(summary + " is closed: " + ssoHint)
		})
	}
	gone(nethttp.MethodPost, "/auth/login", "Password sign-in")
	gone(nethttp.MethodPost, "/auth/register", "Registration")
	gone(nethttp.MethodGet, "/auth/verify-email", "Email verification")
	gone(nethttp.MethodPost, "/auth/resend-verification", "Resending verification")
	gone(nethttp.MethodPost, "/auth/forgot-password", "Password reset request")

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodPost, Path: "/auth/reset-password", Tags: tags("auth"),
		Summary: "Password reset (gone: 404 always)", Deprecated: true, DefaultStatus: nethttp.StatusNotFound,
	}, func(context.Context, *struct{}) (*struct{}, error) {
		return nil, apperr.NotFoundf("there are no passwords to reset: %s", ssoHint)
	})
}
