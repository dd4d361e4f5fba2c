package attempts_test

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("Starting and resuming", func() {
	It("starts an attempt that records every question, then resumes it", func() {
		quiz, ids := cardioQuiz(quizOpts{limit: 20})
		u := learner()
		a := start(u, quiz, "")
		Expect(a.Resumed).To(BeFalse())
		Expect(a.QuizID).To(Equal(quiz))
		Expect(a.QuizTitle).To(Equal("Cardiology basics"))
		Expect(a.Mode).To(Equal("timed"))
		Expect(a.TotalQuestions).To(Equal(3))
		Expect(a.Score).To(BeNil())
		Expect(a.CompletedAt).To(BeNil())
		Expect(a.DeadlineAt).NotTo(BeNil(), "a timed quiz with a limit has a deadline")

		d := getDetail(u, a.ID)
		Expect(d.Answers).To(HaveLen(3))
		for i, ans := range d.Answers {
			Expect(ans.QuestionID).To(Equal(ids[i]))
			Expect(ans.Position).To(Equal(i))
			Expect(ans.Version).To(BeNumerically(">=", 1))
		}

		again := start(u, quiz, "")
		Expect(again.Resumed).To(BeTrue())
		Expect(again.ID).To(Equal(a.ID))
	})

	It("starts a new attempt with fresh=true and drops the quiz's saved progress", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))).
			To(HaveStatus(200))

		b := start(u, quiz, "&fresh=true")
		Expect(b.Resumed).To(BeFalse())
		Expect(b.ID).NotTo(Equal(a.ID))
		Expect(bodyText(u.Client(h).Get(progressPath(quiz)))).To(Equal("null"))

		// The old attempt stays incomplete; resuming takes the latest.
		Expect(start(u, quiz, "").ID).To(Equal(b.ID))
		res := u.Client(h).Get("/api/v1/attempts/in-progress")
		Expect(res).To(HaveStatus(200))
		Expect(res.List()).To(HaveLen(2))
	})

	It("makes two racing starts resume the same attempt", func() {
		quiz, _ := cardioQuiz(quizOpts{})
		u := learner()
		results := make([]*Response, 4)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil)
			}()
		}
		wg.Wait()
		seen := map[float64]bool{}
		for _, res := range results {
			Expect(res).To(HaveStatus(200))
			seen[res.Map()["id"].(float64)] = true
		}
		Expect(seen).To(HaveLen(1))
	})

	It("sits a timed quiz in study mode when asked, without a deadline", func() {
		quiz, _ := cardioQuiz(quizOpts{limit: 10})
		u := learner()
		a := start(u, quiz, "&mode=learning")
		Expect(a.Mode).To(Equal("learning"))
		Expect(a.DeadlineAt).To(BeNil())
		// A start in the quiz's own mode is another attempt.
		Expect(start(u, quiz, "").ID).NotTo(Equal(a.ID))
		Expect(start(u, quiz, "&mode=learning").ID).To(Equal(a.ID))
	})

	It("refuses quizzes the caller may not sit", func() {
		hidden, _ := cardioQuiz(quizOpts{unpublish: true})
		u := learner()
		Expect(u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", hidden), nil)).
			To(HaveError(404, "not_found"))
		Expect(u.Client(h).Post("/api/v1/attempts/start?quiz_id=999999999", nil)).To(HaveError(404, "not_found"))
		// A moderator may sit an unpublished quiz.
		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", hidden), nil)).To(HaveStatus(200))
	})

	It("refuses a quiz with no live questions", func() {
		only := createQuestion(mcq("Lonely question?", "Yes", "Yes", "No"))
		quiz := createQuiz("Soon empty", quizOpts{}, only)
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/questions/%d", only))).To(HaveStatus(204))
		Expect(learner().Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil)).
			To(HaveError(400, "bad_request"))
	})

	It("validates its query and needs a signed-in caller", func() {
		u := learner()
		Expect(u.Client(h).Post("/api/v1/attempts/start", nil)).To(HaveError(422, "invalid_request"))
		Expect(u.Client(h).Post("/api/v1/attempts/start?quiz_id=1&mode=exam", nil)).To(HaveError(422, "invalid_request"))
		Expect(h.Anon().Post("/api/v1/attempts/start?quiz_id=1", nil)).To(HaveError(401, "unauthenticated"))
	})
})
