package drafts_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

// pipeline reads the pipeline's counts as status → count, documents and drafts.
func pipeline(u *harness.User) (docs, drafts map[string]int64) {
	res := u.Client(h).Get("/api/v1/drafts/stats/pipeline")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	body := Exact[contract.PipelineResponse](res)
	ExpectWithOffset(1, body.Documents).NotTo(BeNil(), "documents")
	ExpectWithOffset(1, body.Drafts).NotTo(BeNil(), "drafts")
	read := func(list []contract.StatusCountResponse) (map[string]int64, []string) {
		out, order := map[string]int64{}, []string{}
		for _, c := range list {
			out[c.Status] = c.Count
			order = append(order, c.Status)
		}
		return out, order
	}
	docs, docOrder := read(*body.Documents)
	drafts, draftOrder := read(*body.Drafts)
	ExpectWithOffset(1, docOrder).To(Equal([]string{"processing", "ready", "failed"}))
	ExpectWithOffset(1, draftOrder).To(Equal([]string{"pending", "accepted", "rejected"}))
	return docs, drafts
}

var _ = Describe("The draft pipeline", func() {
	It("counts documents and drafts by status, for moderators only", func() {
		mod := moderator(h)
		// The counts are the whole site's: let other specs' documents
		// finish processing first, so only this spec's moves them.
		Eventually(func() int64 { docs, _ := pipeline(mod); return docs["processing"] }, "60s", "200ms").Should(BeZero())
		docs0, drafts0 := pipeline(mod)
		batch := extractedBatch(mod, 1, 3)
		all := ids(draftsOf(mod, batch, "all"), draftID)
		Expect(all).To(HaveLen(7))
		Expect(reject(mod, all[0], all[1])).To(HaveStatus(200))

		docs, drafts := pipeline(mod)
		Expect(docs["ready"] - docs0["ready"]).To(BeEquivalentTo(1))
		Expect(docs["processing"]).To(Equal(docs0["processing"]))
		Expect(drafts["pending"] - drafts0["pending"]).To(BeEquivalentTo(5))
		Expect(drafts["rejected"] - drafts0["rejected"]).To(BeEquivalentTo(2))
		Expect(drafts["accepted"]).To(Equal(drafts0["accepted"]))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get("/api/v1/drafts/stats/pipeline")).To(HaveError(403, "forbidden"))
	})
})
