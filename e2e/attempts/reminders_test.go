package attempts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// reminder is one item of GET /attempts/reminders.
type reminder struct {
	QuestionID   int64  `json:"question_id"`
	QuizID       int64  `json:"quiz_id"`
	AttemptID    int64  `json:"attempt_id"`
	QuestionText string `json:"question_text"`
	Box          int    `json:"box"`
	Misses       int    `json:"misses"`
	DueAt        string `json:"due_at"`
}

type reminders struct {
	RemindersDisabled bool       `json:"reminders_disabled"`
	Total             int        `json:"total"`
	Due               int        `json:"due"`
	Items             []reminder `json:"items"`
}

func getReminders(u *User, query string) reminders {
	res := u.Client(h).Get("/api/v1/attempts/reminders" + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var r reminders
	res.JSON(&r)
	return r
}

func reminderIDs(u *User) []int64 {
	ids := []int64{}
	for _, it := range getReminders(u, "").Items {
		ids = append(ids, it.QuestionID)
	}
	return ids
}

func setRemindersDisabled(u *User, off bool) {
	ExpectWithOffset(1, u.Client(h).Put("/api/v1/auth/me/settings", map[string]any{"reminders_disabled": off})).
		To(HaveStatus(200))
}

var _ = Describe("The reminder schedule", func() {
	It("schedules missed questions and moves them through the boxes as they are answered", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		submit(u, a.ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "wrong"}) // ids[2] unanswered

		r := getReminders(u, "")
		Expect(r.RemindersDisabled).To(BeFalse())
		Expect(r.Total).To(Equal(2))
		Expect(r.Due).To(Equal(0), "due tomorrow")
		Expect(r.Items).To(HaveLen(2))
		for _, it := range r.Items {
			Expect(it.Box).To(Equal(1))
			Expect(it.Misses).To(Equal(1))
			Expect(it.AttemptID).To(Equal(a.ID))
			Expect(it.QuizID).To(Equal(quiz))
			Expect(it.QuestionText).NotTo(BeEmpty())
		}
		Expect(getReminders(u, "?due=true").Items).To(BeEmpty())

		// A day later they are due.
		exec(`UPDATE attempts.review_schedule SET due_at = due_at - interval '1 day' WHERE user_id = ?`, u.ID)
		r = getReminders(u, "?due=true")
		Expect(r.Due).To(Equal(2))
		Expect(r.Items).To(HaveLen(2))

		// Right on ids[1] moves it up; wrong again on ids[2] keeps it in box 1 with two misses.
		submit(u, start(u, quiz, "").ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "MS", ids[2]: "I"})
		byID := map[int64]reminder{}
		for _, it := range getReminders(u, "").Items {
			byID[it.QuestionID] = it
		}
		Expect(byID).To(HaveLen(2))
		Expect(byID[ids[1]].Box).To(Equal(2))
		Expect(byID[ids[2]].Box).To(Equal(1))
		Expect(byID[ids[2]].Misses).To(Equal(2))

		// Right three more times on ids[1] retires it.
		for range 3 {
			submit(u, start(u, quiz, "").ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "MS"})
		}
		Expect(reminderIDs(u)).To(ConsistOf(ids[2]), "a right answer off the schedule adds nothing")
	})

	It("is dismissible one question at a time", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		submit(u, start(u, quiz, "").ID, nil)
		Expect(reminderIDs(u)).To(HaveLen(3))
		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/reminders/%d", ids[0]))).To(HaveStatus(204))
		Expect(reminderIDs(u)).To(ConsistOf(ids[1], ids[2]))
		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/reminders/%d", ids[0]))).To(HaveError(404, "not_found"))
		// Another learner cannot touch it.
		Expect(learner().Client(h).Delete(fmt.Sprintf("/api/v1/attempts/reminders/%d", ids[1]))).
			To(HaveError(404, "not_found"))
		Expect(reminderIDs(u)).To(HaveLen(2))
	})

	It("honours reminders_disabled", func() {
		quiz, _ := cardioQuiz(quizOpts{})
		u := learner()
		setRemindersDisabled(u, true)
		submit(u, start(u, quiz, "").ID, nil)
		r := getReminders(u, "")
		Expect(r.RemindersDisabled).To(BeTrue())
		Expect(r.Items).To(BeEmpty())
		Expect(getDashboard(u).RemindersDue).To(BeZero())
		var n int
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM attempts.review_schedule WHERE user_id = ?`, u.ID).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero(), "nothing is scheduled while reminders are off")

		setRemindersDisabled(u, false)
		submit(u, start(u, quiz, "").ID, nil)
		Expect(reminderIDs(u)).To(HaveLen(3))
	})
})
