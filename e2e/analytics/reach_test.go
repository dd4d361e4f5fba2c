package analytics_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// Issue 33: a question's analysis is its editors'; a learner who does not
// reach the question cannot tell it from one that does not exist.
var _ = Describe("Item analysis on hand-picked question ids", func() {
	It("refuses a learner 403 where they reach the question, and answers as missing where they do not", func() {
		hp := h.HandPick(mod)
		c := h.NewUser(auth.RoleUser).Client(h)
		analysis := func(id int64) *Response { return c.Get(fmt.Sprintf("/api/v1/questions/%d/analysis", id)) }
		Expect(analysis(hp.Open.ID)).To(HaveError(403, "forbidden"))
		missing := analysis(hp.Missing)
		Expect(missing).To(HaveError(404, "not_found"))
		for name, id := range hp.Unreached() {
			Expect(analysis(id)).To(And(AnswerAlike(missing), ShowNoneOf(hp.Secrets())), name)
		}
		Expect(hp.Holder.Client(h).Get(fmt.Sprintf("/api/v1/questions/%d/analysis", hp.Ungranted.ID))).To(HaveStatus(200))
	})
})
