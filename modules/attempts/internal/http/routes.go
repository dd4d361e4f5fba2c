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
	folderRoutes(r, h)
	collectionRoutes(r, h)
	noteRoutes(r, h)
}

func attemptRoutes(r *httpapi.Router, h *handlers) {
	const tag = "attempts"
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodPost, "/attempts/start", tag,
		"Start or resume an attempt of a quiz", 0, 400, 404, 422),
		"Resumes your latest incomplete attempt of the quiz in the same mode, or starts one "+
			"(fresh=true always starts one and drops the quiz's saved progress). mode defaults to the quiz's own; "+
			"learning is a study session (answers shown at once). The attempt records every question as it is now."),
		h.start)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodPost, "/attempts/{attempt_id}/submit", tag,
		"Submit and score your attempt", 0, 404, 422),
		"Optional body {answers: {question_id: answer}} wins over the saved progress; "+
			"flagged lists the questions flagged while sitting, kept for the review. "+
			"Unanswered questions are wrong; a second submit returns the same result without scoring again."),
		h.submit)
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
	save := httpapi.Described(httpapi.Op(http.MethodPost, "/attempts/progress", tag,
		"Save your progress (autosave)", 0, 404, 409, 422),
		"x-quiz-session names the device. Another device gets 409 while the device that saved "+
			"last did so less than the device lock (30 s) ago, and takes over after. An optional revision "+
			"(monotonic per device) keeps an older save from overwriting a newer one. Progress expires 7 days "+
			"after its last save.")
	save.SkipValidateBody = true // ProgressFields decodes and checks itself, once
	httpapi.RegisterEncoded[saveProgressIn, SavedResponse](r, auth.User, save, h.saveProgress)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodGet, "/attempts/progress", tag,
		"Your saved progress for a quiz, or null", 0, 404, 409, 422),
		"Auto-submits a timed attempt of the quiz whose time ran out first (its id is in the "+
			"X-Attempts-Auto-Submitted header). 409 while another device holds the lock."),
		h.getProgress)
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

func folderRoutes(r *httpapi.Router, h *handlers) {
	const tag = "folders"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/folders", tag,
		"Your folders by name, with how many collections each holds", 0), h.folders)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/folders", tag,
		"Make a folder (names are unique per learner)", http.StatusCreated, 409, 422), h.createFolder)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPatch, "/folders/{folder_id}", tag,
		"Rename your folder", 0, 404, 409, 422), h.renameFolder)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/folders/{folder_id}", tag,
		"Delete your folder; its collections stay, unfiled", http.StatusNoContent, 404), h.deleteFolder)
}

func collectionRoutes(r *httpapi.Router, h *handlers) {
	const tag = "collections"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/collections", tag,
		"Your collections, most recently changed first", 0, 404, 422), h.collections)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/collections", tag,
		"Make a collection of questions", http.StatusCreated, 422), h.createCollection)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/collections/{collection_id}", tag,
		"Your collection with its question ids in the order added", 0, 404), h.collection)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPatch, "/collections/{collection_id}", tag,
		"Rename, describe or move your collection (folder_id null unfiles it)", 0, 404, 422), h.updateCollection)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/collections/{collection_id}", tag,
		"Delete your collection", http.StatusNoContent, 404), h.deleteCollection)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPut, "/collections/{collection_id}/questions/{question_id}", tag,
		"Put a bank question in your collection (again: no change)", http.StatusNoContent, 400, 404), h.addToCollection)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/collections/{collection_id}/questions/{question_id}", tag,
		"Take a question out of your collection", http.StatusNoContent, 404), h.removeFromCollection)
}

func noteRoutes(r *httpapi.Router, h *handlers) {
	// The spec's tag groups have no "notes"; a note is the learner's own,
	// like their attempts.
	const tag = "attempts"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/notes", tag,
		"Your notes, most recently changed first", 0, 422), h.notes)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/notes/{question_id}", tag,
		"Your note on a question", 0, 404), h.note)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPut, "/notes/{question_id}", tag,
		"Write your note on a bank question (one per question)", 0, 404, 422), h.putNote)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/notes/{question_id}", tag,
		"Delete your note on a question", http.StatusNoContent, 404), h.deleteNote)
}
