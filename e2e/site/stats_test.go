package site_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// stats reads GET /public/stats anonymously as numbers.
func stats(x *Harness) map[string]float64 {
	res := x.Anon().Get("/api/v1/public/stats")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	out := map[string]float64{}
	for k, v := range res.Map() {
		out[k] = v.(float64)
	}
	return out
}

var _ = Describe("The public counts", func() {
	It("counts live questions, published quizzes and learners, for anyone, and nothing else", func() {
		before := stats(h)
		Expect(before).To(HaveKey("articles"))
		Expect(before).To(HaveKey("decks"))

		mod := h.NewUser(auth.RoleModerator).Client(h)
		ids := []int64{}
		for i := range 2 {
			var q struct{ ID int64 }
			res := mod.Post("/api/v1/questions/create", map[string]any{"question_text": "Counted question " + string(rune('A'+i)) + "?",
				"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes"})
			Expect(res).To(HaveStatus(201))
			res.JSON(&q)
			ids = append(ids, q.ID)
		}
		var quiz struct{ ID int64 }
		res := mod.Post("/api/v1/questions/from-bank", map[string]any{"title": "Counted quiz", "question_ids": ids})
		Expect(res).To(HaveStatus(201))
		res.JSON(&quiz)
		Expect(stats(h)["quizzes"]).To(Equal(before["quizzes"]), "an unpublished quiz is not counted")
		Expect(mod.Patch("/api/v1/quizzes/"+itoa(quiz.ID)+"/publish?published=true", nil)).To(HaveStatus(200))

		after := stats(h)
		Expect(after["questions"]).To(Equal(before["questions"] + 2))
		Expect(after["quizzes"]).To(Equal(before["quizzes"] + 1))
		Expect(after["learners"]).To(BeNumerically(">", before["learners"]), "the moderator signed up")
		var users int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM identity.users`).Scan(&users).Error).To(Succeed())
		Expect(after["learners"]).To(Equal(float64(users)))
	})

	It("serves the same counts for stats_ttl", func() {
		first := stats(plain)
		plain.NewUser(auth.RoleUser)
		Expect(stats(plain)).To(Equal(first), "cached for a minute by default")
	})
})
