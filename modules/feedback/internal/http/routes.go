// Package http is the feedback module's HTTP surface: filing a report,
// the reporter's own list, and the moderators' queue.
package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/feedback/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc *app.Service
}

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	const tag = "feedback"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/feedback", tag,
		"Report a problem with something you read (one open report per target)", http.StatusCreated,
		http.StatusNotFound, http.StatusConflict, http.StatusTooManyRequests), h.fileReport)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/feedback/mine", tag,
		"Your reports and what became of them, newest first", 0), h.myReports)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/feedback", tag,
		"The report queue, newest first (open ones by default)", 0), h.queue)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPut, "/feedback/{report_id}/resolve", tag,
		"Close an open report as resolved or dismissed, with a note the reporter reads", 0,
		http.StatusNotFound, http.StatusConflict), h.resolve)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/feedback/open-counts", tag,
		"How many open reports each of the given targets has (an editor's marks); ids without any are absent",
		0), h.openCounts)
}
