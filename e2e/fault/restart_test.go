package fault_test

import (
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("A Postgres server restart under autosave load", Serial, func() {
	It("loses no acknowledged save, answers 503 (never 500) while it restarts, and recovers by itself", func() {
		// A cluster of the test's own: restarting the shared one would
		// break every other package's tests.
		pg := startCluster()
		DeferCleanup(pg.stop)
		rh := pg.serve("rounds")
		DeferCleanup(rh.Stop)

		const learners = 12
		load := startAutosave(rh, rh.NewUser(auth.RoleModerator), learners)
		down := pg.restart() // pg_ctl -m fast: every session ends, the postmaster stops and starts
		load.markRestored()
		firstOK, lastFailure := load.finish()
		Expect(rh.Anon().Get("/api/health")).To(HaveStatus(http.StatusOK))
		AddReportEntry("postgres restart under autosave load",
			fmt.Sprintf("%d learners; pg_ctl restart took %s; first save after it returned %s later; last failure %s after; answers %v",
				learners, down.Round(time.Millisecond), firstOK.Round(time.Millisecond), lastFailure.Round(time.Millisecond), load.statuses))
	})
})
