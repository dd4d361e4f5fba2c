// Package http is the plans module's HTTP surface.
package http

import (
	nethttp "net/http"

	"github.com/roundsedu/rounds/modules/plans/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register adds the study plan operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	const tag = "study-plans"
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/study-plans", tag,
		"Study plans: published ones and those you are enrolled in (moderators: all), newest first", 0), h.listPlans)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/study-plans", tag,
		"Create an unpublished study plan", nethttp.StatusCreated), h.createPlan)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/study-plans/{plan_id}", tag,
		"A study plan with its blocks, reading and your progress", 0, nethttp.StatusNotFound), h.getPlan)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPatch, "/study-plans/{plan_id}", tag,
		"Edit a study plan's title, description or exam date (blocks never change)", 0, nethttp.StatusNotFound), h.patchPlan)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPatch, "/study-plans/{plan_id}/publish", tag,
		"Publish a study plan (is_published 1) or retire it (0); plans are retired, not deleted", 0,
		nethttp.StatusNotFound, nethttp.StatusConflict), h.publishPlan)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodDelete, "/study-plans/{plan_id}", tag,
		"Delete a retired or never-published study plan for good (admins; the only way a plan is deleted)", nethttp.StatusNoContent,
		nethttp.StatusNotFound, nethttp.StatusConflict), h.deletePlan)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/study-plans/{plan_id}/blocks", tag,
		"Append a block: its question ids are fixed once built; reading only on mixed plans", nethttp.StatusCreated,
		nethttp.StatusNotFound), h.addBlock)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/study-plans/{plan_id}/enrol", tag,
		"Enrol in a published study plan (again: no change)", 0, nethttp.StatusNotFound, nethttp.StatusConflict), h.enrol)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/study-plans/blocks/{block_id}/start", tag,
		"Build or reuse your saved test of a block; sit it with POST /attempts/start?quiz_id=", 0,
		nethttp.StatusNotFound, nethttp.StatusConflict, nethttp.StatusServiceUnavailable), h.startBlock)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/study-plans/reading/{link_id}/read", tag,
		"Mark a block's reading read or unread", nethttp.StatusNoContent, nethttp.StatusNotFound), h.markRead)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/study-plans/from-blueprint", tag,
		"Draw an unpublished plan from a blueprint: papers (miniature exams to the weights) or domains (a block per domain)",
		nethttp.StatusCreated), h.fromBlueprint)
}

// RegisterExams adds the exam and exam-result operations.
func RegisterExams(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	const tag = "exams"
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/exams", tag,
		"Draw a timed exam paper to a blueprint (refused naming each short domain)", nethttp.StatusCreated), h.createExam)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/exams", tag,
		"Exams: published ones (moderators: all), newest first", 0), h.listExams)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPatch, "/exams/{exam_id}/publish", tag,
		"Open an exam to learners (published=true) or close it; results already recorded stay readable", 0,
		nethttp.StatusNotFound), h.publishExam)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/exams/{exam_id}", tag,
		"An exam (published, or any for moderators)", 0, nethttp.StatusNotFound), h.getExam)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/exams/{exam_id}/start", tag,
		"Build or reuse your timed saved test of the paper; sit it with POST /attempts/start?quiz_id=", 0,
		nethttp.StatusNotFound, nethttp.StatusServiceUnavailable), h.startExam)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/exam-results/{exam_id}", "exam results",
		"Your result: score per domain, percentile among all who sat the paper, weakest domains with their articles and decks", 0,
		nethttp.StatusNotFound), h.examReport)
}
