// Package http holds the attempts module's thin huma handlers: decode
// (huma validates), call the service, map the result to the wire shapes.
// Every route is the caller's own: someone else's attempt, collection,
// folder or note answers 404, as if it did not exist.
package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	attemptRoutes(r, h)
	progressRoutes(r, h)
	readingRoutes(r, h)
	ownedRoutes(r, h)
}

func attemptRoutes(r *httpapi.Router, h *handlers) {
	const tag = "attempts"
	start := httpapi.Op(http.MethodPost, "/attempts/start", tag, "Start or resume an attempt of a quiz", 0, 400, 404, 422)
	start.Description = "Resumes your latest incomplete attempt of the quiz in the same mode, or starts one " +
		"(fresh=true always starts one and drops the quiz's saved progress). mode defaults to the quiz's own; " +
		"learning is a study session (answers shown at once). The attempt records every question as it is now."
	httpapi.Register(r, auth.User, start, h.start)
	submit := httpapi.Op(http.MethodPost, "/attempts/{attempt_id}/submit", tag, "Submit and score your attempt", 0, 404, 422)
	submit.Description = "Optional body {answers: {question_id: answer}} wins over the saved progress; " +
		"flagged lists the questions flagged while sitting, kept for the review. " +
		"Unanswered questions are wrong; a second submit returns the same result without scoring again."
	httpapi.Register(r, auth.User, submit, h.submit)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/", tag,
		"Your attempts, newest first", 0, 422), h.list)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/{attempt_id}", tag,
		"One of your attempts with its questions as sat", 0, 404), h.detail)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/attempts/{attempt_id}", tag,
		"Delete your attempt, its answers and the reminder entries it set", http.StatusNoContent, 404), h.delete)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/in-progress", tag,
		"Your incomplete attempts", 0), h.inProgress)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/{attempt_id}/in-progress", tag,
		"Your attempt if it is an incomplete attempt of the quiz, else null", 0, 404, 422), h.inProgressOne)
}

func progressRoutes(r *httpapi.Router, h *handlers) {
	const tag = "attempts"
	save := httpapi.Op(http.MethodPost, "/attempts/progress", tag, "Save your progress (autosave)", 0, 404, 409, 422)
	save.Description = "x-quiz-session names the device. Another device gets 409 while the device that saved " +
		"last did so less than the device lock (30 s) ago, and takes over after. An optional revision " +
		"(monotonic per device) keeps an older save from overwriting a newer one. Progress expires 7 days " +
		"after its last save."
	save.SkipValidateBody = true // ProgressFields decodes and checks itself, once
	httpapi.RegisterEncoded[saveProgressIn, SavedResponse](r, auth.User, save, h.saveProgress)
	get := httpapi.Op(http.MethodGet, "/attempts/progress", tag, "Your saved progress for a quiz, or null", 0, 404, 409, 422)
	get.Description = "Auto-submits a timed attempt of the quiz whose time ran out first (its id is in the " +
		"X-Attempts-Auto-Submitted header). 409 while another device holds the lock."
	httpapi.Register(r, auth.User, get, h.getProgress)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/attempts/progress/{attempt_id}", tag,
		"Drop the saved progress of your attempt", http.StatusNoContent, 404, 409), h.deleteProgress)
}

func readingRoutes(r *httpapi.Router, h *handlers) {
	const tag = "attempts"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/history", tag,
		"Your record per quiz with its latest attempts", 0), h.history)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/stats/dashboard", tag,
		"Your dashboard: counts, scores, streaks, per-category performance", 0), h.dashboard)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/stats/charts", tag,
		"Your dashboard's charts: scores over time, questions answered per day, time per question against the cohort", 0), h.charts)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/attempts/reminders", tag,
		"Your review schedule of missed questions", 0), h.reminders)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/attempts/reminders/{question_id}", tag,
		"Take a question off your review schedule", http.StatusNoContent, 404), h.dismissReminder)
}

func ownedRoutes(r *httpapi.Router, h *handlers) {
	folderRoutes(r, h)
	collectionRoutes(r, h)
	noteRoutes(r, h)
}
