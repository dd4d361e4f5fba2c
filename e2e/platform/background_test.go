package platform_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/scheduler"
)

func deliveries(group, id string) int {
	var n int
	Expect(h.App.DB.Conn(context.Background()).
		Raw(`SELECT count(*) FROM public.test_deliveries WHERE grp = ? AND id = ?`, group, id).Scan(&n).Error).To(Succeed())
	return n
}

// publish commits one event in a transaction of its own.
func publish(p ping) error {
	return h.App.DB.Tx(context.Background(), func(ctx context.Context) error {
		return h.App.Bus.Publish(ctx, pingTopic, p)
	})
}

var _ = Describe("The event outbox", func() {
	ctx := context.Background()

	It("publishes nothing when the writing transaction rolls back", func() {
		id := uuid.NewString()
		err := h.App.DB.Tx(ctx, func(ctx context.Context) error {
			Expect(h.App.Bus.Publish(ctx, pingTopic, ping{ID: id})).To(Succeed())
			return errors.New("the business write failed")
		})
		Expect(err).To(HaveOccurred())
		// A later committed event proves the subscribers are live and past it.
		marker := uuid.NewString()
		Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
			return h.App.Bus.Publish(ctx, pingTopic, ping{ID: marker})
		})).To(Succeed())
		Eventually(func() int { return deliveries("test.beta", marker) }, "5s").Should(Equal(1))
		Expect(probe.called("test.alpha", id)).To(BeZero())
		Expect(probe.called("test.beta", id)).To(BeZero())
	})

	It("refuses to publish outside a transaction: the outbox would be lost", func() {
		id := uuid.NewString()
		err := h.App.Bus.Publish(ctx, pingTopic, ping{ID: id})
		Expect(err).To(MatchError(events.ErrNoTx))
		marker := uuid.NewString()
		Expect(publish(ping{ID: marker})).To(Succeed())
		Eventually(func() int { return deliveries("test.beta", marker) }, "5s").Should(Equal(1))
		Expect(probe.called("test.alpha", id)).To(BeZero(), "nothing was written")
	})

	It("delivers a committed event once to each consumer group", func() {
		id := uuid.NewString()
		Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
			return h.App.Bus.Publish(ctx, pingTopic, ping{ID: id})
		})).To(Succeed())
		Eventually(func() int { return deliveries("test.alpha", id) }, "5s").Should(Equal(1))
		Eventually(func() int { return deliveries("test.beta", id) }, "5s").Should(Equal(1))
		Consistently(func() int { return deliveries("test.alpha", id) }, "300ms").Should(Equal(1))
	})

	It("makes a redelivered message harmless", func() {
		id := uuid.NewString()
		Expect(publish(ping{ID: id})).To(Succeed())
		Eventually(func() int { return deliveries("test.alpha", id) }, "5s").Should(Equal(1))
		before := duplicates()
		// Rewind the group's offset: Watermill delivers everything again.
		Expect(h.App.DB.Conn(ctx).Exec(`UPDATE events."test.ping.v1:offsets"
			SET offset_acked = 0, last_processed_transaction_id = '0' WHERE consumer_group = 'test.alpha'`).Error).To(Succeed())
		Eventually(duplicates, "5s").Should(BeNumerically(">", before))
		Expect(deliveries("test.alpha", id)).To(Equal(1))
		Expect(probe.called("test.alpha", id)).To(Equal(1))
	})

	It("moves an event that keeps failing to the poison queue and goes on", func() {
		bad, good := uuid.NewString(), uuid.NewString()
		Expect(publish(ping{ID: bad, Fail: true})).To(Succeed())
		Expect(publish(ping{ID: good})).To(Succeed())
		Eventually(func() int { return deliveries("test.alpha", good) }, "10s").Should(Equal(1))
		Eventually(func() []string {
			list, err := h.App.Bus.Poisoned(ctx, 50)
			Expect(err).NotTo(HaveOccurred())
			var reasons []string
			for _, p := range list {
				if p.Topic == pingTopic && strings.Contains(string(p.Payload), bad) {
					reasons = append(reasons, p.Reason)
				}
			}
			return reasons
		}, "10s").Should(ContainElement(ContainSubstring("always fails")))
		// First try plus max_retries (2) retries, per group.
		Expect(probe.called("test.alpha", bad)).To(Equal(3))
	})
})

// duplicates reads the redelivery counter the bus reports to metrics.
func duplicates() float64 {
	return metricValue(h.App.Metrics, "rounds_events_total", map[string]string{"group": "test.alpha", "outcome": "duplicate"})
}

var _ = Describe("Jobs", func() {
	ctx := context.Background()
	owner := int64(42)

	wait := func(id uuid.UUID, st jobs.Status) *jobs.Record {
		var rec *jobs.Record
		Eventually(func() jobs.Status {
			var err error
			rec, err = h.App.Queue.Get(ctx, id)
			Expect(err).NotTo(HaveOccurred())
			return rec.Status
		}, "10s", "50ms").Should(Equal(st))
		return rec
	}

	It("runs a job, records its steps in order and its result", func() {
		id, err := h.App.Queue.Enqueue(ctx, "test.steps", &owner, stepsPayload{Steps: 3})
		Expect(err).NotTo(HaveOccurred())
		rec := wait(id, jobs.Completed)
		Expect(rec.Steps).To(HaveLen(3))
		for i := 1; i < len(rec.Steps); i++ {
			Expect(rec.Steps[i].Detail > rec.Steps[i-1].Detail).To(BeTrue(), "steps out of order")
		}
		var result map[string]int
		Expect(rec.Decode(&result)).To(Succeed())
		Expect(result).To(HaveKeyWithValue("steps", 3))
		Expect(rec.FinishedAt).NotTo(BeNil())
	})

	It("records a failure's message", func() {
		id, err := h.App.Queue.Enqueue(ctx, "test.fail", &owner, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(wait(id, jobs.Failed).Error).To(ContainSubstring("page 3"))
	})

	It("creates nothing when the enqueuing transaction rolls back", func() {
		var id uuid.UUID
		err := h.App.DB.Tx(ctx, func(ctx context.Context) error {
			var err error
			id, err = h.App.Queue.Enqueue(ctx, "test.steps", &owner, stepsPayload{Steps: 1})
			Expect(err).NotTo(HaveOccurred())
			return errors.New("rolled back")
		})
		Expect(err).To(HaveOccurred())
		_, err = h.App.Queue.Get(ctx, id)
		Expect(err).To(MatchError(jobs.ErrNotFound))
	})

	It("cancels a running job cooperatively and keeps it cancelled", func() {
		id, err := h.App.Queue.Enqueue(ctx, "test.steps", &owner, stepsPayload{Steps: 1, Block: true})
		Expect(err).NotTo(HaveOccurred())
		wait(id, jobs.Running)
		Expect(h.App.Queue.Cancel(ctx, id)).To(Succeed())
		rec := wait(id, jobs.Cancelled)
		steps := len(rec.Steps)
		Consistently(func() int {
			r, _ := h.App.Queue.Get(ctx, id)
			Expect(r.Status).To(Equal(jobs.Cancelled))
			return len(r.Steps)
		}, "400ms", "50ms").Should(BeNumerically("<=", steps+1))
		Expect(h.App.Queue.Cancel(ctx, id)).To(MatchError(jobs.ErrNotCancellable))
	})

	It("refuses new work when the queue is full", func() {
		q := jobs.NewQueue(h.App.DB, withMaxPending(h.Config.Jobs, 0))
		_, err := q.Enqueue(ctx, "test.steps", &owner, stepsPayload{Steps: 1})
		Expect(err).To(MatchError(jobs.ErrQueueFull))
	})

	It("takes up a job whose worker died once its lease expires", func() {
		id := uuid.New()
		// What a crashed worker leaves behind: running, lease in the past.
		Expect(h.App.DB.Conn(ctx).Exec(`INSERT INTO platform.jobs
			(id, kind, owner_id, status, payload, attempts, max_attempts, worker, lease_until, started_at, steps)
			VALUES (?, 'test.steps', ?, 'running', '{"steps":1}', 1, 3, 'dead-host/1/x', now() - interval '1 second', now(), '[{"name":"step","at":"2026-01-01T00:00:00Z"}]')`,
			id, owner).Error).To(Succeed())
		rec := wait(id, jobs.Completed)
		Expect(rec.Attempts).To(Equal(2))
		var result map[string]int
		Expect(rec.Decode(&result)).To(Succeed())
		Expect(result).To(HaveKeyWithValue("attempt", 2))
	})

	It("fails a job whose workers kept dying instead of running it forever", func() {
		id := uuid.New()
		Expect(h.App.DB.Conn(ctx).Exec(`INSERT INTO platform.jobs
			(id, kind, status, payload, attempts, max_attempts, worker, lease_until)
			VALUES (?, 'test.steps', 'running', '{"steps":1}', 3, 3, 'dead-host/2/y', now() - interval '1 second')`, id).Error).To(Succeed())
		Expect(wait(id, jobs.Failed).Error).To(ContainSubstring("abandoned"))
	})
})

var _ = Describe("The scheduler", func() {
	It("lets exactly one of two schedulers lead, and moves leadership when the leader stops", func() {
		var mu sync.Mutex
		runs := map[string]int{}
		lockKey := time.Now().UnixNano() // private to this test
		start := func(name string) (*scheduler.Scheduler, context.CancelFunc, chan struct{}) {
			s := scheduler.NewWithLock(h.App.DB, h.Config.Scheduler, slog.New(slog.DiscardHandler), metrics.New(), lockKey)
			s.Every("tick", 50*time.Millisecond, func(context.Context) error {
				mu.Lock()
				runs[name]++
				mu.Unlock()
				return nil
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); _ = s.Run(ctx, time.Second) }()
			return s, cancel, done
		}
		count := func(name string) func() int {
			return func() int { mu.Lock(); defer mu.Unlock(); return runs[name] }
		}
		_, stopA, doneA := start("a")
		_, stopB, doneB := start("b")
		defer func() { stopB(); <-doneB }()

		Eventually(func() int { return count("a")() + count("b")() }, "5s").Should(BeNumerically(">=", 5))
		leader, standby := "a", "b"
		if count("b")() > 0 {
			leader, standby = "b", "a"
		}
		Expect(count(standby)()).To(BeZero(), "both schedulers ran the job")

		stopLeader := stopA
		doneLeader := doneA
		if leader == "b" {
			stopLeader, doneLeader = stopB, doneB
			stopB, doneB = stopA, doneA
		}
		stopLeader()
		<-doneLeader
		Eventually(count(standby), "5s").Should(BeNumerically(">=", 3))
	})
})

var _ = Describe("Housekeeping", func() {
	It("prunes old delivered events, dedupe records and finished jobs, and keeps recent ones", func() {
		ctx := context.Background()
		conn := h.App.DB.Conn(ctx)
		old, recent := uuid.New(), uuid.New()
		Expect(conn.Exec(`INSERT INTO events."test.ping.v1" (uuid, payload, transaction_id, created_at)
			VALUES ('old-msg', '{}', pg_current_xact_id(), now() - interval '40 days')`).Error).To(Succeed())
		Expect(conn.Exec(`INSERT INTO events.processed VALUES ('test.alpha', 'old-msg', now() - interval '40 days')`).Error).To(Succeed())
		Expect(conn.Exec(`INSERT INTO platform.jobs (id, kind, status, max_attempts, finished_at)
			VALUES (?, 'test.steps', 'completed', 3, now() - interval '40 days'),
			       (?, 'test.steps', 'completed', 3, now())`, old, recent).Error).To(Succeed())

		n, err := h.App.Bus.Prune(ctx, 30*24*time.Hour)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically(">=", 2))
		_, err = h.App.Queue.Prune(ctx, 30*24*time.Hour)
		Expect(err).NotTo(HaveOccurred())

		var left int
		Expect(conn.Raw(`SELECT count(*) FROM events."test.ping.v1" WHERE uuid = 'old-msg'`).Scan(&left).Error).To(Succeed())
		Expect(left).To(BeZero())
		_, err = h.App.Queue.Get(ctx, old)
		Expect(err).To(MatchError(jobs.ErrNotFound))
		_, err = h.App.Queue.Get(ctx, recent)
		Expect(err).NotTo(HaveOccurred())
	})
})
