package bank_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// A process keeps the quiz rows quiz reads open with, forgets one when the
// bank's triggers say it changed, and keeps none while it is not listening
// (docs/decisions/bank.md, "The quiz row in memory"). Writes straight to
// the database stand for another process's: this one hears of them only
// through the notifications.
var _ = Describe("The quiz rows a serving process keeps", func() {
	elsewhere := func(sql string, args ...any) {
		ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Exec(sql, args...).Error).To(Succeed())
	}
	// soon waits less than the 10 s a row is kept at most: what it sees
	// came by notification (or from the database), not by expiry.
	soon := func(actual any) AsyncAssertion {
		return EventuallyWithOffset(1, actual).WithTimeout(5 * time.Second).WithPolling(5 * time.Millisecond)
	}
	const listening = `FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "bank_quiz_rows"'`
	listeners := func() (n int) {
		ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) `+listening).Scan(&n).Error).To(Succeed())
		return n
	}

	It("shows another process's writes once their notification arrives, and reads the database while not listening", func() {
		z := quiz(unique("Kept row"), []int64{create(mcq(unique("Kept row one")))})
		publish(z)
		var cat struct{ ID int64 }
		mod.Client(h).Post(api+"/categories/", q{"name": unique("Kept row cat")}).JSON(&cat)
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=%d", z, cat.ID), nil)).To(HaveStatus(200))
		learner := h.NewUser(auth.RoleUser)
		read := func() map[string]any {
			res := learner.Client(h).Get(path("/quizzes/%d", z))
			ExpectWithOffset(1, res).To(HaveStatus(200))
			var d map[string]any
			res.JSON(&d)
			return d
		}
		title := func() any { return read()["title"] }
		Expect(title()).To(HavePrefix("Kept row"))
		Eventually(listeners).WithTimeout(10 * time.Second).Should(Equal(1)) // the process listens from its start

		elsewhere(`UPDATE bank.quizzes SET title = 'Renamed elsewhere' WHERE id = ?`, z)
		soon(title).Should(Equal("Renamed elsewhere"))
		// A quiz category's name is on many quizzes: its change forgets them all.
		elsewhere(`UPDATE bank.quiz_categories SET name = 'Category renamed elsewhere' WHERE id = ?`, cat.ID)
		soon(func() any { return read()["category_name"] }).Should(Equal("Category renamed elsewhere"))
		elsewhere(`DELETE FROM bank.quiz_categories WHERE id = ?`, cat.ID)
		soon(func() any { return read()["category_id"] }).Should(BeNil())

		// Cut the listening session: what was kept may have missed a change,
		// so nothing is kept until a session listens again.
		var cut int
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(pg_terminate_backend(pid)) ` + listening).Scan(&cut).Error).To(Succeed())
		Expect(cut).To(Equal(1))
		elsewhere(`UPDATE bank.quizzes SET title = 'Renamed while deaf' WHERE id = ?`, z)
		soon(title).Should(Equal("Renamed while deaf"))
		Eventually(listeners).WithTimeout(10 * time.Second).Should(Equal(1))
		Expect(title()).To(Equal("Renamed while deaf"))
		elsewhere(`UPDATE bank.quizzes SET is_published = false WHERE id = ?`, z)
		soon(func() *Response { return learner.Client(h).Get(path("/quizzes/%d", z)) }).Should(HaveError(404, "not_found"))
		Expect(getQuiz(mod, z, "").Title).To(Equal("Renamed while deaf"))
	})

	It("reads its own writes at once", func() {
		z := quiz(unique("Own write"), []int64{create(mcq(unique("Own write one")))})
		publish(z)
		learner := h.NewUser(auth.RoleUser)
		for i := range 20 {
			title := unique("Own write title")
			Expect(mod.Client(h).Patch(path("/quizzes/%d", z), q{"title": title})).To(HaveStatus(200))
			Expect(getQuiz(learner, z, "").Title).To(Equal(title), "write %d", i)
		}
		Expect(mod.Client(h).Patch(path("/quizzes/%d/publish?published=false", z), nil)).To(HaveStatus(200))
		Expect(learner.Client(h).Get(path("/quizzes/%d", z))).To(HaveError(404, "not_found"))
	})
})
