package plans_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Editing a study plan", func() {
	It("changes title, description and exam date for moderators only, naming the bad field, and never the blocks", func() {
		ids := questions(1)
		plan := IDOf(newPlan("set"))
		addBlock(plan, "Week 1", ids)
		Expect(publish(plan, true)).To(HaveStatus(200))
		edit := func(body q) *Response { return mod.Client(h).Patch(at("/study-plans/%d", plan), body) }

		Expect(h.NewUser(auth.RoleUser).Client(h).Patch(at("/study-plans/%d", plan), q{"title": "Mine"})).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Patch(at("/study-plans/999999999"), q{"title": "Gone"})).To(HaveError(404, "not_found"))
		for _, c := range []struct {
			body         q
			field, words string
		}{
			{q{"title": "   "}, "body.title", "title is required and must not be blank"},
			{q{"description": strings.Repeat("a", 4001)}, "body.description", "at most 4000 characters"},
			{q{"exam_date": "2027-13-01"}, "body.exam_date", "exam_date must be a date (YYYY-MM-DD)"},
		} {
			res := edit(c.body)
			Expect(res).To(HaveError(422, "invalid_request"))
			Expect(res.Map()["error"]).To(HaveKeyWithValue("fields", ContainElement(And(HaveKeyWithValue("field", c.field),
				HaveKeyWithValue("message", ContainSubstring(c.words))))), string(res.Body))
		}

		res := edit(q{"title": "  Renal in five weeks ", "exam_date": "2027-04-02"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("title", "Renal in five weeks"), HaveKeyWithValue("exam_date", "2027-04-02"),
			HaveKeyWithValue("description", ""), HaveKeyWithValue("is_published", BeNumerically("==", 1)),
			HaveKeyWithValue("blocks", HaveLen(1))))
		res = edit(q{"description": "Two blocks a week.", "exam_date": ""})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("title", "Renal in five weeks"), HaveKeyWithValue("exam_date", BeNil()),
			HaveKeyWithValue("description", "Two blocks a week.")))

		var stored struct {
			Title, Description string
			ExamDate           *time.Time
		}
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT title, description, exam_date FROM plans.plans WHERE id = ?`, plan).
			Scan(&stored).Error).To(Succeed())
		Expect(stored.Title).To(Equal("Renal in five weeks"))
		Expect(stored.Description).To(Equal("Two blocks a week."))
		Expect(stored.ExamDate).To(BeNil())
	})
})
