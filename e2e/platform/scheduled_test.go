package platform_test

import (
	"context"
	"log/slog"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// sweepTask is the queued scheduled task below: its run, on a worker,
// stores a row with the River job it ran as.
const sweepTask = "test.scheduled_sweep"

// sweeper is a scheduler of its own, on a lock key nothing else holds, so
// it is the only candidate and leads as soon as it asks: the app's own
// scheduler (the default key) never competes with it.
var sweeper *scheduler.Scheduler

// registerScheduledTask declares sweepTask on the app's job runner before
// the app starts (a kind is registered before River's workers run).
func registerScheduledTask(a *app.App) {
	must(a.DB.Conn(context.Background()).Exec(`CREATE TABLE public.test_sweeps (at timestamptz NOT NULL DEFAULT now())`).Error)
	sweeper = scheduler.NewWithLock(a.DB, a.Config.Scheduler, slog.New(slog.DiscardHandler), metrics.New(),
		time.Now().UnixNano(), a.Runner)
	sweeper.EveryQueued(sweepTask, 100*time.Millisecond, func(ctx context.Context) error {
		return a.DB.Conn(ctx).Exec(`INSERT INTO public.test_sweeps DEFAULT VALUES`).Error
	})
}

var _ = Describe("A scheduled task that does more than a few statements", func() {
	It("is queued as River work by the leading scheduler, and a worker runs it to completion", func() {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = sweeper.Run(ctx, time.Second) }()
		DeferCleanup(func() { stop(); <-done })
		Eventually(func() bool { return sweeper.Leading(context.Background()) }, "5s", "50ms").Should(BeTrue(),
			"the only scheduler on its lock leads")

		conn := h.App.DB.Conn(context.Background())
		completed := func() int {
			var n int
			Expect(conn.Raw(`SELECT count(*) FROM river.river_job j JOIN platform.job_progress p ON p.job_id = j.id
				WHERE j.kind = ? AND j.state = 'completed' AND p.kind = ?`, sweepTask, sweepTask).Scan(&n).Error).To(Succeed())
			return n
		}
		Eventually(completed, "10s", "50ms").Should(BeNumerically(">=", 2), "each run is a River job, run to completion")

		// Every stored row is some job's run: none ran on the scheduler itself.
		stop()
		<-done
		var sweeps, jobsDone int
		Eventually(func() int {
			var waiting int
			Expect(conn.Raw(`SELECT count(*) FROM river.river_job WHERE kind = ? AND state <> 'completed'`, sweepTask).
				Scan(&waiting).Error).To(Succeed())
			return waiting
		}, "10s", "50ms").Should(BeZero(), "the last queued run completes too")
		Expect(conn.Raw(`SELECT count(*) FROM public.test_sweeps`).Scan(&sweeps).Error).To(Succeed())
		jobsDone = completed()
		Expect(sweeps).To(Equal(jobsDone), "one run per queued job")
	})
})
