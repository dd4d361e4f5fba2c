package search_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

var _ = Describe("Without a rerank endpoint and with a full job queue", Ordered, func() {
	// bare has no model proxy (ai.base_url), and its job queue accepts nothing.
	var bare *harness.Harness
	BeforeAll(func() {
		var err error
		bare, err = harness.Start(harness.WithConfig(func(c *config.Config) { c.Jobs.MaxPending = 0 }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(bare.Stop()).To(Succeed()) })
	})

	It("answers 503 to a regeneration and creates nothing", func() {
		admin := newUser(bare, auth.RoleAdmin)
		Expect(admin.Client(bare).Post("/api/v1/admin/embedding/regenerate", nil)).To(harness.HaveError(503, "unavailable"))
		var jobs int
		Expect(bare.App.DB.Conn(context.Background()).
			Raw(`SELECT count(*) FROM river.river_job WHERE kind = 'regenerate_embeddings'`).Scan(&jobs).Error).To(Succeed())
		Expect(jobs).To(BeZero())
		Expect(health(bare).Regeneration).To(BeNil())
	})

	It("answers 400 to the rerank test when a model is set but no proxy is", func() {
		setRerankModel(bare, "standin-rerank")
		res := newUser(bare, auth.RoleAdmin).Client(bare).Post("/api/v1/admin/rerank/test", nil)
		Expect(res).To(harness.HaveError(400, "bad_request"))
		Expect(string(res.Body)).To(ContainSubstring("ai.base_url"))
	})

	It("keeps fusion order when a model is set but no proxy is", func() {
		var last int64
		for range 4 {
			last = question(bare, "Management of a tension pneumothorax in the field")
		}
		// The queue takes no embed_pending job: the text is indexed and found
		// by keyword, its vector left to retry_missing_embeddings.
		Eventually(func() int64 { return version(bare, last) }, "10s", "20ms").Should(Equal(int64(1)))
		Expect(health(bare).Missing).To(BeNumerically(">=", 4))
		u := searcher(bare)
		fused := ids(searchQuestions(bare, u, "tension pneumothorax", 10))
		Expect(fused).To(HaveLen(4))

		setRerankModel(bare, "standin-rerank")
		before := len(proxy.RerankRequests())
		sec := searchQuestions(bare, u, "tension pneumothorax", 10)
		Expect(sec.Reranked).To(BeFalse())
		Expect(ids(sec)).To(Equal(fused))
		Expect(proxy.RerankRequests()).To(HaveLen(before))
	})
})
