package feedback_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// question files an MCQ every learner reaches: one of a published quiz.
func question(text string) int64 {
	c := mod.Client(h)
	res := c.Post("/api/v1/questions/create", map[string]any{"question_text": text,
		"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes"})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	id := int64(res.Map()["id"].(float64))
	res = c.Post("/api/v1/questions/from-bank", map[string]any{"title": "Reported from", "question_ids": []int64{id}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	ExpectWithOffset(1, c.Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", int64(res.Map()["id"].(float64))), nil)).
		To(HaveStatus(200))
	return id
}

func report(u *User, kind string, id int64, typ, text string) *Response {
	return u.Client(h).Post("/api/v1/feedback", map[string]any{"kind": kind, "target_id": id, "type": typ, "text": text})
}

type row struct {
	Status         string
	ResolutionNote string
	ResolvedBy     *int64
	ReporterID     int64
	Title          string
}

func stored(id float64) row {
	var r row
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT status, resolution_note, resolved_by, reporter_id, title
		FROM feedback.reports WHERE id = ?`, int64(id)).Scan(&r).Error).To(Succeed())
	return r
}

var _ = Describe("Reports", func() {
	It("lets a learner report a question once while it is open, and moderators resolve it with a note the reporter reads", func() {
		q := question("Which valve lesion gives an opening snap?")
		ada, bo := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)

		res := report(ada, "question", q, "wrong_answer", "  The key says aortic; the explanation says mitral.  ")
		Expect(res).To(HaveStatus(201))
		first := res.Map()
		Expect(first).To(And(HaveKeyWithValue("kind", "question"), HaveKeyWithValue("status", "open"),
			HaveKeyWithValue("title", "Which valve lesion gives an opening snap?"),
			HaveKeyWithValue("text", "The key says aortic; the explanation says mitral."),
			HaveKeyWithValue("reporter_id", BeNumerically("==", ada.ID))))
		Expect(stored(first["id"].(float64)).Status).To(Equal("open"))

		Expect(report(ada, "question", q, "typo", "And a typo.")).To(HaveError(409, "conflict"))
		Expect(report(bo, "question", q, "unclear", "Unclear stem.")).To(HaveStatus(201))

		counts := mod.Client(h).Get(fmt.Sprintf("/api/v1/feedback/open-counts?kind=question&ids=%d,999999", q))
		Expect(counts).To(HaveStatus(200))
		Expect(counts.Map()).To(Equal(map[string]any{fmt.Sprint(q): float64(2)}))

		queue := mod.Client(h).Get(fmt.Sprintf("/api/v1/feedback?kind=question&target_id=%d", q))
		Expect(queue).To(HaveStatus(200))
		Expect(queue.List()).To(HaveLen(2))
		Expect(queue.Header.Get("X-Total-Count")).To(Equal("2"))

		id := int64(first["id"].(float64))
		done := mod.Client(h).Put(fmt.Sprintf("/api/v1/feedback/%d/resolve", id),
			map[string]any{"status": "resolved", "note": "Key corrected to mitral stenosis."})
		Expect(done).To(HaveStatus(200))
		Expect(done.Map()).To(And(HaveKeyWithValue("status", "resolved"), HaveKey("resolved_at")))
		r := stored(first["id"].(float64))
		Expect(r.ResolutionNote).To(Equal("Key corrected to mitral stenosis."))
		Expect(*r.ResolvedBy).To(Equal(mod.ID))
		Expect(mod.Client(h).Put(fmt.Sprintf("/api/v1/feedback/%d/resolve", id),
			map[string]any{"status": "dismissed"})).To(HaveError(409, "conflict"))

		mine := ada.Client(h).Get("/api/v1/feedback/mine")
		Expect(mine).To(HaveStatus(200))
		Expect(mine.List()).To(ConsistOf(And(HaveKeyWithValue("status", "resolved"),
			HaveKeyWithValue("resolution_note", "Key corrected to mitral stenosis."))), "only the reporter's own")

		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/feedback/open-counts?kind=question&ids=%d", q)).Map()).
			To(Equal(map[string]any{fmt.Sprint(q): float64(1)}))
		Expect(report(ada, "question", q, "other", "Still wrong in the review.")).To(HaveStatus(201),
			"once resolved, the reporter may report again")
	})

	It("refuses what cannot be reported, by field, and stores nothing", func() {
		u := h.NewUser(auth.RoleUser)
		q := question("Refusals question?")
		res := report(u, "poem", q, "typo", "x")
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring("question"), "names the kinds that exist")
		Expect(report(u, "question", 999999999, "typo", "x")).To(HaveError(404, "not_found"))
		Expect(report(u, "question", q, "rant", "x")).To(HaveError(422, "invalid_request"))
		Expect(report(u, "question", q, "typo", "   ")).To(HaveError(422, "invalid_request"))
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM feedback.reports WHERE reporter_id = ?`, u.ID).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	It("keeps the queue and its actions for moderators", func() {
		u := h.NewUser(auth.RoleUser)
		Expect(u.Client(h).Get("/api/v1/feedback")).To(HaveError(403, "forbidden"))
		Expect(u.Client(h).Put("/api/v1/feedback/1/resolve", map[string]any{"status": "resolved"})).To(HaveError(403, "forbidden"))
		Expect(u.Client(h).Get("/api/v1/feedback/open-counts?kind=question&ids=1")).To(HaveError(403, "forbidden"))
		Expect(h.Anon().Post("/api/v1/feedback", map[string]any{})).To(HaveError(401, "unauthenticated"))
		Expect(mod.Client(h).Put("/api/v1/feedback/999999999/resolve", map[string]any{"status": "resolved"})).
			To(HaveError(404, "not_found"))
	})

	It("limits a learner to reports_per_hour, and not a moderator", func() {
		u := h.NewUser(auth.RoleUser)
		for i := range 3 {
			Expect(report(u, "question", question(fmt.Sprintf("Limit %d?", i)), "typo", "x")).To(HaveStatus(201))
		}
		res := report(u, "question", question("One too many?"), "typo", "x")
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		for i := range 4 {
			Expect(report(mod, "question", question(fmt.Sprintf("Mod %d?", i)), "typo", "x")).To(HaveStatus(201))
		}
	})
})
