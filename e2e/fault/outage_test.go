package fault_test

import (
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("The database cut off under autosave load", Serial, func() {
	It("loses no acknowledged save, answers 503 (never 500) while down, and recovers by itself", func() {
		const learners = 12
		load := startAutosave(h, mod, learners)

		Expect(SetConnectable(ctxb, h.DBURL, false)).To(Succeed())
		DeferCleanup(func() { Expect(SetConnectable(ctxb, h.DBURL, true)).To(Succeed()) })
		cut := time.Now()
		// Down until the learners have been refused a few times each.
		Eventually(func() int { return load.count(http.StatusServiceUnavailable) }, "30s", "20ms").
			Should(BeNumerically(">=", 3*learners))
		load.markRestored()
		down := time.Since(cut)
		Expect(SetConnectable(ctxb, h.DBURL, true)).To(Succeed())
		firstOK, lastFailure := load.finish()
		AddReportEntry("database cut off under autosave load",
			fmt.Sprintf("%d learners; down %s; first save after reconnect %s later; last failure %s after reconnect; answers %v",
				learners, down.Round(time.Millisecond), firstOK.Round(time.Millisecond), lastFailure.Round(time.Millisecond), load.statuses))
	})
})
