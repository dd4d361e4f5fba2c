// Package http is the analytics module's HTTP surface: a question's item
// analysis for its editors, the bank-wide flags for moderators, and the
// peer comparison of a learner's submitted attempt.
package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/analytics/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc *app.Service
}

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/questions/analysis", "questions",
		"Item versions an analysis flag picks out (too easy, too hard, poorly or negatively discriminating), most answered first",
		0), h.flagged)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/questions/{question_id}/analysis", "questions",
		"Item analysis of every version of a question (its editors)",
		0, http.StatusForbidden, http.StatusNotFound), h.questionAnalysis)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/{attempt_id}/peers", "attempts",
		"How everyone answered the questions of your submitted attempt, and your percentile",
		0, http.StatusNotFound), h.peers)
	chartRoutes(r, h)
}
