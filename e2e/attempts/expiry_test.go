package attempts_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// runOutOfTime moves a timed attempt's start and deadline an hour back.
func runOutOfTime(attemptID int64) {
	exec(`UPDATE attempts.attempts SET started_at = started_at - interval '1 hour',
		deadline_at = deadline_at - interval '1 hour' WHERE id = ?`, attemptID)
}

func deadlineOf(attemptID int64) time.Time {
	var t time.Time
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT deadline_at FROM attempts.attempts WHERE id = ?`, attemptID).
		Scan(&t).Error).To(Succeed())
	return t
}

var _ = Describe("A timed attempt whose time runs out", func() {
	It("is auto-submitted when its progress is read, with the answers saved in time", func() {
		quiz, ids := cardioQuiz(quizOpts{limit: 15})
		u := learner()
		a := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress",
			save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "MS"}, nil))).To(HaveStatus(200))
		runOutOfTime(a.ID)
		deadline := deadlineOf(a.ID)

		res := u.Client(h).Get(progressPath(quiz))
		Expect(res).To(HaveStatus(200))
		Expect(bodyText(res)).To(Equal("null"), "submission clears the saved progress")
		Expect(res.Header.Get("X-Attempts-Auto-Submitted")).To(Equal(fmt.Sprint(a.ID)))

		d := getDetail(u, a.ID)
		Expect(d.AutoSubmitted).To(BeTrue())
		Expect(*d.Score).To(Equal(2))
		Expect(d.AnswersShown).To(BeTrue())
		completed, err := time.Parse(time.RFC3339Nano, *d.CompletedAt)
		Expect(err).NotTo(HaveOccurred())
		Expect(completed.Equal(deadline)).To(BeTrue(), "completed at the deadline, not when noticed")
		// A second read finds nothing more to do.
		Expect(u.Client(h).Get(progressPath(quiz)).Header.Get("X-Attempts-Auto-Submitted")).To(BeEmpty())
	})

	It("refuses a late save, submitting what was saved in time", func() {
		quiz, ids := cardioQuiz(quizOpts{limit: 15})
		u := learner()
		a := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress",
			save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))).To(HaveStatus(200))
		runOutOfTime(a.ID)
		Expect(u.Client(h).Post("/api/v1/attempts/progress",
			save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate", ids[2]: "II"}, nil))).To(HaveError(409, "conflict"))
		d := getDetail(u, a.ID)
		Expect(d.AutoSubmitted).To(BeTrue())
		Expect(*d.Score).To(Equal(1))
	})

	It("scores a late explicit submit on the answers saved in time", func() {
		quiz, ids := cardioQuiz(quizOpts{limit: 15})
		u := learner()
		a := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress",
			save(quiz, a.ID, map[int64]string{ids[1]: "mitral stenosis"}, nil))).To(HaveStatus(200))
		runOutOfTime(a.ID)
		d := submit(u, a.ID, map[int64]string{ids[0]: "Nitrate", ids[2]: "II"})
		Expect(d.AutoSubmitted).To(BeTrue())
		Expect(*d.Score).To(Equal(1))
		Expect(d.Answers[0].UserAnswer).To(BeNil())
	})

	It("is not resumed: a start submits it and begins a new attempt", func() {
		quiz, _ := cardioQuiz(quizOpts{limit: 15})
		u := learner()
		a := start(u, quiz, "")
		runOutOfTime(a.ID)
		b := start(u, quiz, "")
		Expect(b.ID).NotTo(Equal(a.ID))
		Expect(b.Resumed).To(BeFalse())
		Expect(getDetail(u, a.ID).AutoSubmitted).To(BeTrue())
	})

	It("leaves the in-progress listings", func() {
		quiz, _ := cardioQuiz(quizOpts{limit: 15})
		u := learner()
		a := start(u, quiz, "")
		var open []attempt
		u.Client(h).Get("/api/v1/attempts/in-progress").JSON(&open)
		Expect(open).To(HaveLen(1))
		runOutOfTime(a.ID)
		u.Client(h).Get("/api/v1/attempts/in-progress").JSON(&open)
		Expect(open).To(BeEmpty())
		Expect(getDetail(u, a.ID).AutoSubmitted).To(BeTrue())
	})

	It("never expires without a time limit, nor in study mode", func() {
		untimed, _ := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, untimed, "")
		Expect(a.DeadlineAt).To(BeNil())
		exec(`UPDATE attempts.attempts SET started_at = started_at - interval '30 days' WHERE id = ?`, a.ID)
		Expect(u.Client(h).Get(progressPath(untimed))).To(HaveStatus(200))
		Expect(getDetail(u, a.ID).CompletedAt).To(BeNil())
	})
})
