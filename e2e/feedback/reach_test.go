package feedback_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// Issue 33: a report names a question the reporter reaches, or it answers
// as one naming a question that does not exist.
var _ = Describe("Reports on hand-picked question ids", func() {
	It("are taken only on a question the learner reaches; any other id answers as a missing one and stores nothing", func() {
		hp := h.HandPick(mod)
		var reporters []int64
		// A learner each: reports are limited per hour.
		try := func(id int64) *Response {
			u := h.NewUser(auth.RoleUser)
			reporters = append(reporters, u.ID)
			return report(u, "question", id, "wrong_answer", "The key looks wrong.")
		}
		missing := try(hp.Missing)
		Expect(missing).To(HaveError(404, "not_found"))
		for name, id := range hp.Unreached() {
			Expect(try(id)).To(And(AnswerAlike(missing), ShowNoneOf(hp.Secrets())), name)
		}
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM feedback.reports WHERE reporter_id IN ?`, reporters).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())

		Expect(try(hp.Open.ID)).To(HaveStatus(201))
		Expect(report(hp.Holder, "question", hp.Ungranted.ID, "typo", "A typo.")).To(HaveStatus(201), "a grant reaches its branch")
	})
})
