// Package http is the site module's HTTP surface: the contact form, its
// admin inbox and the landing page's public counts.
package http

import (
	nethttp "net/http"

	"github.com/roundsedu/rounds/modules/site/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register adds the site's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	contactRoutes(r, h)
	httpapi.Register(r, auth.Public, httpapi.Op(nethttp.MethodGet, "/public/stats", "public",
		"Live counts for the landing page (questions, quizzes, articles, decks, learners)", 0), h.publicStats)
}

func contactRoutes(r *httpapi.Router, h *handlers) {
	const tag = "contact"
	httpapi.Register(r, auth.Public, httpapi.Op(nethttp.MethodPost, "/contact", tag,
		"Send a message to the site's team (a captcha when configured; limited per address)", 0,
		nethttp.StatusBadRequest, nethttp.StatusTooManyRequests, nethttp.StatusBadGateway), h.contact)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodGet, "/contact/submissions", tag,
		"Contact messages, newest first (X-Total-Count has the total)", 0), h.submissions)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodPut, "/contact/submissions/{submission_id}/read", tag,
		"Mark a contact message read", 0, nethttp.StatusNotFound), h.markRead)
}
