// Package http is the share module's HTTP surface: making, listing and
// revoking links (signed in), and opening one (anyone with the token).
package http

import (
	nethttp "net/http"

	"github.com/roundsedu/rounds/modules/share/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register adds the share operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	const tag = "share"
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/share/links", tag,
		"Make a read-only link to a published thing; the token is shown only in this answer", nethttp.StatusCreated,
		nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict, nethttp.StatusTooManyRequests),
		"kind: quiz, deck or article. with_answers shows correct answers and explanations to visitors; for a timed quiz only a moderator may choose it."),
		h.createLink)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/share/links", tag,
		"Your share links, newest first", 0), h.myLinks)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodDelete, "/share/links/{link_id}", tag,
		"Revoke a link (yours; moderators any); it stops opening at once", nethttp.StatusNoContent,
		nethttp.StatusNotFound), h.revoke)
	httpapi.Register(r, auth.Public, httpapi.Op(nethttp.MethodGet, "/share/open/{token}", tag,
		"What a share link shows, read-only, without signing in", 0,
		nethttp.StatusNotFound, nethttp.StatusGone, nethttp.StatusTooManyRequests), h.open)
}
