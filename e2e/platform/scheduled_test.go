package platform_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// sweepTask is the queued scheduled task below: each run, on a River
// worker, stores one row in public.test_sweeps.
const sweepTask = "test.scheduled_sweep"

func sweep(ctx context.Context) error {
	return h.App.DB.Conn(ctx).Exec(`INSERT INTO public.test_sweeps DEFAULT VALUES`).Error
}

// processTasks stands for the job runners of several scheduler
// processes in one test process: each process registers a task's kind on
// its own runner, and here they share the app's, so the kind is
// registered once (before River's workers start) and every scheduler gets
// the same enqueue.
type processTasks struct {
	r       *jobs.Runner
	mu      sync.Mutex
	enqueue map[string]func(context.Context) error
}

var sharedTasks *processTasks

func (t *processTasks) Task(name string, timeout time.Duration, fn func(context.Context) error) func(context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.enqueue[name]; ok {
		return e
	}
	t.enqueue[name] = t.r.Task(name, timeout, fn)
	return t.enqueue[name]
}

// counted is one scheduler's view of the shared tasks: it counts the runs
// that scheduler queued.
type counted struct {
	tasks  scheduler.Tasks
	queued atomic.Int64
}

func (c *counted) Task(name string, timeout time.Duration, fn func(context.Context) error) func(context.Context) error {
	enqueue := c.tasks.Task(name, timeout, fn)
	return func(ctx context.Context) error {
		c.queued.Add(1)
		return enqueue(ctx)
	}
}

// registerScheduledTask declares sweepTask's kind before the app starts.
func registerScheduledTask(a *app.App) {
	must(a.DB.Conn(context.Background()).Exec(`CREATE TABLE public.test_sweeps (at timestamptz NOT NULL DEFAULT now())`).Error)
	sharedTasks = &processTasks{r: a.Runner, enqueue: map[string]func(context.Context) error{}}
	sharedTasks.Task(sweepTask, time.Minute, sweep)
}

var _ = Describe("A scheduled task that does more than a few statements", func() {
	It("is queued as River work by the leading scheduler only, and a worker runs each run to completion", func() {
		lockKey := time.Now().UnixNano() // these two schedulers compete with nobody else
		start := func() (*scheduler.Scheduler, *counted, func()) {
			tasks := &counted{tasks: sharedTasks}
			s := scheduler.NewWithLock(h.App.DB, h.Config.Scheduler, slog.New(slog.DiscardHandler), metrics.New(), lockKey, tasks)
			s.EveryQueued(sweepTask, 200*time.Millisecond, sweep)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); _ = s.Run(ctx, time.Second) }()
			return s, tasks, sync.OnceFunc(func() { cancel(); <-done })
		}
		leader, led, stopLeader := start()
		DeferCleanup(stopLeader)
		Eventually(func() bool { return leader.Leading(context.Background()) }, "5s", "50ms").Should(BeTrue())
		standby, stood, stopStandby := start()
		DeferCleanup(stopStandby)

		conn := h.App.DB.Conn(context.Background())
		completed := func() int {
			var n int
			Expect(conn.Raw(`SELECT count(*) FROM river.river_job j JOIN platform.job_progress p ON p.job_id = j.id
				WHERE j.kind = ? AND j.state = 'completed' AND p.kind = ? AND p.owner_id IS NULL`, sweepTask, sweepTask).
				Scan(&n).Error).To(Succeed())
			return n
		}
		Eventually(completed, "20s", "50ms").Should(BeNumerically(">=", 3), "each run is a River job, run to completion")
		Expect(standby.Leading(context.Background())).To(BeFalse(), "the leader still holds the lock")

		stopStandby() // first, so it never leads
		stopLeader()
		Eventually(func() int {
			var waiting int
			Expect(conn.Raw(`SELECT count(*) FROM river.river_job WHERE kind = ? AND state <> 'completed'`, sweepTask).
				Scan(&waiting).Error).To(Succeed())
			return waiting
		}, "20s", "50ms").Should(BeZero(), "the last queued run completes too")

		Expect(stood.queued.Load()).To(BeZero(), "the standby queued nothing")
		Expect(led.queued.Load()).To(BeNumerically(">=", completed()), "the leader queued every run")
		var sweeps int
		Expect(conn.Raw(`SELECT count(*) FROM public.test_sweeps`).Scan(&sweeps).Error).To(Succeed())
		Expect(sweeps).To(Equal(completed()), "each completed job did the task's work once, and nothing else did it")
	})
})
