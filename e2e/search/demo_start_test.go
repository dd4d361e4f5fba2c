package search_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/config"
)

// The demo data at start-up, as `task up` loads it: several hundred
// questions indexed at once, embedded by embed_pending jobs that run side
// by side (one is queued while another works) over overlapping batches.
var _ = Describe("Start-up with the demo data", func() {
	It("embeds every demo question with the workers running, no deadlock in the log", func() {
		demo, err := harness.Start(harness.CaptureLog(), harness.WithConfig(func(c *config.Config) {
			c.Set("bank.seed_demo", true)
			c.Set("labs.seed_demo", true)
			c.Jobs.Concurrency = 4 // more jobs side by side than the default two: more chances to meet
		}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(demo.Stop()).To(Succeed()) })

		type coverage struct{ Questions, Missing int }
		var seeded int
		Expect(demo.App.DB.Conn(context.Background()).Raw(`SELECT count(*) FROM bank.questions`).Scan(&seeded).Error).To(Succeed())
		Expect(seeded).To(BeNumerically(">=", 300))
		Eventually(func(g Gomega) coverage {
			var c coverage
			g.Expect(demo.App.DB.Conn(context.Background()).Raw(`SELECT count(*) AS questions,
				count(*) FILTER (WHERE embedded_hash IS DISTINCT FROM content_hash) AS missing
				FROM search.documents WHERE kind = 'question' AND NOT purged`).Scan(&c).Error).To(Succeed())
			return c
		}, "120s", "100ms").Should(Equal(coverage{Questions: seeded}))

		Expect(demo.Log.String()).NotTo(Or(ContainSubstring("deadlock"), ContainSubstring("40P01")))
		var failed []map[string]any
		for _, rec := range demo.Log.Records("") {
			if rec["level"] == "ERROR" {
				failed = append(failed, rec)
			}
		}
		Expect(failed).To(BeEmpty(), "no statement failed while the demo data was indexed and embedded")
		Expect(demo.Log.Records("search: embed_pending stopped: endpoint failing; the retry job takes over")).To(BeEmpty())
	})
})
