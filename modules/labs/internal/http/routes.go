// Package http is the labs module's HTTP surface: the reference table for
// every signed-in user and the moderators' writes.
package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/labs/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc *app.Service
}

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	const tag = "study-tools"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/study-tools/lab-values", tag,
		"The lab reference table: published values (everything with include_drafts, moderators only), at most 500, with its tabs",
		0, http.StatusForbidden), h.listValues)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/study-tools/lab-values", tag,
		"Add a reference value", http.StatusCreated), h.createValue)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPut, "/study-tools/lab-values/{id}", tag,
		"Replace a reference value with the record sent (its card links stay)", 0, http.StatusNotFound), h.replaceValue)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/study-tools/lab-values/{id}", tag,
		"Remove a reference value for good", http.StatusNoContent, http.StatusNotFound), h.deleteValue)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPut, "/study-tools/lab-values/{id}/cards/{card_id}", tag,
		"Link a flashcard to a reference value (again: no change)", 0, http.StatusNotFound), h.linkCard)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/study-tools/lab-values/{id}/cards/{card_id}", tag,
		"Unlink a flashcard from a reference value (not linked: no change)", 0, http.StatusNotFound), h.unlinkCard)
}
