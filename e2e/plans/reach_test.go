package plans_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// Issue 33: what a learner sits of a plan.
var _ = Describe("Reach in study plans", func() {
	count := func(sql string, args ...any) int64 {
		var n int64
		ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&n).Error).To(Succeed())
		return n
	}

	It("limits a block to what the learner reaches: their favourites and others' grants add nothing", func() {
		withPorts(bankTests(), nil, nil)
		hp := h.HandPick(mod)
		plan := idOf(newPlan("set"))
		mixed := blocksOf(addBlock(plan, "Mixed", []int64{hp.Unpublished.ID, hp.Ungranted.ID, hp.Open.ID, hp.Withdrawn.ID}))[0]
		closed := blocksOf(addBlock(plan, "Closed", []int64{hp.Unpublished.ID, hp.Ungranted.ID, hp.Withdrawn.ID}))[1]
		Expect(publish(plan, true)).To(HaveStatus(200))
		u := h.NewUser(auth.RoleUser)
		c := u.Client(h)
		for _, id := range hp.Unreached() {
			c.Post(api+"/favorites", q{"question_id": id}) // refused; were one taken, it must still reach nothing
		}

		res := c.Post(at("/study-plans/blocks/%d/start?mode=learning", idOf(mixed)), nil)
		Expect(res).To(HaveStatus(200))
		quiz := int64(res.Map()["quiz_id"].(float64))
		Expect(savedTest(quiz)).To(Equal(bankQuiz{Owner: u.ID, Mode: "learning", Questions: []int64{hp.Open.ID}}))
		Expect(c.Get(at("/quizzes/%d?study=true", quiz))).To(And(HaveStatus(200), ShowNoneOf(hp.Secrets())))

		res = c.Post(at("/study-plans/blocks/%d/start?mode=learning", idOf(closed)), nil)
		Expect(res).To(And(HaveError(409, "conflict"), ShowNoneOf(hp.Secrets())))
		Expect(count(`SELECT count(*) FROM plans.block_progress WHERE block_id = ? AND user_id = ?`, idOf(closed), u.ID)).To(BeZero())
		Expect(count(`SELECT count(*) FROM bank.saved_tests WHERE user_id = ?`, u.ID)).To(BeEquivalentTo(1))
	})
})
