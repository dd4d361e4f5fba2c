package analytics_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("The item map", func() {
	It("places each question answered enough at its facility and discrimination, for moderators only", func() {
		qs := []int64{createQuestion("Mapped easy?"), createQuestion("Mapped middling?"), createQuestion("Mapped hard?")}
		quiz := createQuiz(qs)
		few := createQuestion("Mapped, answered too few times?")
		fewQuiz := createQuiz([]int64{few})
		var ids []int64
		sat := []map[int64]string{
			{qs[0]: "Alpha", qs[1]: "Alpha", qs[2]: "Alpha"},
			{qs[0]: "Alpha", qs[1]: "Alpha", qs[2]: "Bravo"},
			{qs[0]: "Alpha", qs[1]: "Bravo", qs[2]: "Bravo"},
			{qs[0]: "Bravo", qs[1]: "Bravo", qs[2]: "Charlie"},
		}
		for i, answers := range sat {
			u := h.NewUser(auth.RoleUser)
			id := startAttempt(u, quiz, "")
			submit(u, id, answers)
			ids = append(ids, id)
			if i < 2 { // two responses: below min_responses (3 here)
				id := startAttempt(u, fewQuiz, "")
				submit(u, id, map[int64]string{few: "Alpha"})
				ids = append(ids, id)
			}
		}
		Eventually(countedOf(ids...), "60s", "100ms").Should(BeNumerically("==", 6))

		res := mod.Client(h).Get("/api/v1/questions/analysis/map")
		Expect(res).To(HaveStatus(200))
		byID := map[int64]map[string]any{}
		for _, p := range res.List() {
			m := p.(map[string]any)
			byID[int64(m["question_id"].(float64))] = m
		}
		Expect(byID).NotTo(HaveKey(few))
		for i, q := range qs {
			want := recompute(quiz, q)
			Expect(byID).To(HaveKey(q))
			got := byID[q]
			Expect(got).To(HaveKeyWithValue("responses", 4.0))
			Expect(got).To(HaveKeyWithValue("version", 1.0))
			Expect(got["facility"]).To(BeNumerically("~", []float64{0.75, 0.5, 0.25}[i], 0.0006), "question %d", q)
			Expect(math.IsNaN(want.r)).To(BeFalse())
			Expect(got["discrimination"]).To(BeNumerically("~", want.r, 0.0006), "question %d", q)
		}

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get("/api/v1/questions/analysis/map")).To(HaveError(403, "forbidden"))
		Expect(h.Anon().Get("/api/v1/questions/analysis/map")).To(HaveError(401, "unauthenticated"))
	})
})
