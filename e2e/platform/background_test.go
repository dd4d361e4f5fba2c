package platform_test

import (
	"context"
	"errors"
	"fmt"
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
		return events.Publish(ctx, h.App.Bus, pingTopic, p)
	})
}

var _ = Describe("The event outbox", func() {
	ctx := context.Background()

	It("publishes nothing when the writing transaction rolls back", func() {
		id := uuid.NewString()
		err := h.App.DB.Tx(ctx, func(ctx context.Context) error {
			Expect(events.Publish(ctx, h.App.Bus, pingTopic, ping{ID: id})).To(Succeed())
			return errors.New("the business write failed")
		})
		Expect(err).To(HaveOccurred())
		// A later committed event proves the subscribers are live and past it.
		marker := uuid.NewString()
		Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
			return events.Publish(ctx, h.App.Bus, pingTopic, ping{ID: marker})
		})).To(Succeed())
		Eventually(func() int { return deliveries("test.beta", marker) }, "5s").Should(Equal(1))
		Expect(probe.called("test.alpha", id)).To(BeZero())
		Expect(probe.called("test.beta", id)).To(BeZero())
	})

	It("refuses to publish outside a transaction: the outbox would be lost", func() {
		id := uuid.NewString()
		err := events.Publish(ctx, h.App.Bus, pingTopic, ping{ID: id})
		Expect(err).To(MatchError(events.ErrNoTx))
		marker := uuid.NewString()
		Expect(publish(ping{ID: marker})).To(Succeed())
		Eventually(func() int { return deliveries("test.beta", marker) }, "5s").Should(Equal(1))
		Expect(probe.called("test.alpha", id)).To(BeZero(), "nothing was written")
	})

	It("delivers a committed event once to each consumer group", func() {
		id := uuid.NewString()
		Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
			return events.Publish(ctx, h.App.Bus, pingTopic, ping{ID: id})
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
				if p.Topic == pingTopic.Name() && strings.Contains(string(p.Payload), bad) {
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

	waitWithin := func(id uuid.UUID, st jobs.Status, within string) *jobs.Record {
		var rec *jobs.Record
		Eventually(func() jobs.Status {
			var err error
			rec, err = h.App.Queue.Get(ctx, id)
			Expect(err).NotTo(HaveOccurred())
			return rec.Status
		}, within, "50ms").Should(Equal(st))
		return rec
	}
	wait := func(id uuid.UUID, st jobs.Status) *jobs.Record { return waitWithin(id, st, "10s") }
	// riverRow is River's row of a job: its state and runs.
	riverRow := func(id uuid.UUID) (row struct {
		ID      int64
		State   string
		Attempt int
	}) {
		Expect(h.App.DB.Conn(ctx).Raw(`SELECT j.id, j.state, j.attempt FROM river.river_job j
			JOIN platform.job_progress p ON p.job_id = j.id WHERE p.public_id = ?`, id).Scan(&row).Error).To(Succeed())
		return row
	}

	It("runs a job, records its steps in order and its result", func() {
		id, err := h.App.Queue.Enqueue(ctx, &owner, stepsPayload{Steps: 3})
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
		Expect(rec.OwnerID).To(Equal(&owner))
		Expect(riverRow(id).State).To(Equal("completed"), "River's own record agrees")
	})

	It("records a failure's message and does not run it again", func() {
		before := failRuns.Load()
		id, err := h.App.Queue.Enqueue(ctx, &owner, failPayload{})
		Expect(err).NotTo(HaveOccurred())
		rec := wait(id, jobs.Failed)
		Expect(rec.Error).To(Equal("the parser choked on page 3"))
		Expect(rec.Attempts).To(Equal(1))
		Consistently(failRuns.Load, "1500ms", "100ms").Should(Equal(before+1), "a failure that will not pass is not retried")
	})

	It("retries a failure worth retrying with backoff, then fails the job with its reason once its runs are spent", func() {
		before := failRuns.Load()
		id, err := h.App.Queue.Enqueue(ctx, &owner, failPayload{Passing: true})
		Expect(err).NotTo(HaveOccurred())
		rec := waitWithin(id, jobs.Failed, "60s")
		Expect(rec.Attempts).To(Equal(h.Config.Jobs.MaxAttempts))
		Expect(rec.Error).To(ContainSubstring(fmt.Sprintf("went away on attempt %d", h.Config.Jobs.MaxAttempts)))
		Expect(failRuns.Load() - before).To(BeEquivalentTo(h.Config.Jobs.MaxAttempts))
		var retried []string
		for _, st := range rec.Steps {
			Expect(st.Name).To(Equal("trying again"))
			retried = append(retried, st.Detail)
		}
		Expect(retried).To(HaveExactElements(HavePrefix("the database went away on attempt 1"),
			HavePrefix("the database went away on attempt 2")))
		Expect(riverRow(id).State).To(Equal("cancelled"), "ended for good, not left to River's next retry")
	})

	It("creates nothing when the enqueuing transaction rolls back", func() {
		var id uuid.UUID
		err := h.App.DB.Tx(ctx, func(ctx context.Context) error {
			var err error
			id, err = h.App.Queue.Enqueue(ctx, &owner, stepsPayload{Steps: 77})
			Expect(err).NotTo(HaveOccurred())
			return errors.New("rolled back")
		})
		Expect(err).To(HaveOccurred())
		_, err = h.App.Queue.Get(ctx, id)
		Expect(err).To(MatchError(jobs.ErrNotFound))
		var rows int
		Expect(h.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM river.river_job WHERE kind = 'test.steps' AND args @> '{"steps": 77}'`).
			Scan(&rows).Error).To(Succeed())
		Expect(rows).To(BeZero(), "no River job either")
	})

	It("cancels a running job cooperatively and keeps it cancelled", func() {
		id, err := h.App.Queue.Enqueue(ctx, &owner, stepsPayload{Steps: 1, Block: true})
		Expect(err).NotTo(HaveOccurred())
		wait(id, jobs.Running)
		Expect(h.App.Queue.Cancel(ctx, id)).To(Succeed())
		rec, err := h.App.Queue.Get(ctx, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.Status).To(Equal(jobs.Cancelled), "cancelled from the moment it is asked")
		Expect(rec.FinishedAt).NotTo(BeNil())
		steps := len(rec.Steps)
		Eventually(func() string { return riverRow(id).State }, "10s", "50ms").Should(Equal("cancelled"), "its worker stopped")
		Consistently(func() int {
			r, _ := h.App.Queue.Get(ctx, id)
			Expect(r.Status).To(Equal(jobs.Cancelled))
			return len(r.Steps)
		}, "400ms", "50ms").Should(BeNumerically("<=", steps+1))
		Expect(h.App.Queue.Cancel(ctx, id)).To(MatchError(jobs.ErrNotCancellable))
	})

	It("refuses new work when the queue is full", func() {
		q, err := jobs.NewQueue(h.App.DB, withMaxPending(h.Config.Jobs, 0), slog.New(slog.DiscardHandler))
		Expect(err).NotTo(HaveOccurred())
		jobs.Register(jobs.NewRunner(q, h.Config.Database, slog.New(slog.DiscardHandler), metrics.New()),
			jobs.Kind[stepsPayload]{Timeout: time.Second, Handle: func(context.Context, *jobs.Run[stepsPayload]) (any, error) { return nil, nil }})
		_, err = q.Enqueue(ctx, &owner, stepsPayload{Steps: 1})
		Expect(err).To(MatchError(jobs.ErrQueueFull))
	})

	It("answers the job already queued for a unique kind instead of queuing the same work twice", func() {
		first, err := h.App.Queue.Enqueue(ctx, &owner, uniquePayload{Block: true})
		Expect(err).NotTo(HaveOccurred())
		wait(first, jobs.Running)
		again, err := h.App.Queue.Enqueue(ctx, &owner, uniquePayload{})
		Expect(err).To(MatchError(jobs.ErrDuplicate))
		Expect(again).To(Equal(first))
		var rows int
		Expect(h.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM river.river_job WHERE kind = 'test.unique' AND state = 'running'`).
			Scan(&rows).Error).To(Succeed())
		Expect(rows).To(Equal(1))

		Expect(h.App.Queue.Cancel(ctx, first)).To(Succeed())
		Eventually(func() string { return riverRow(first).State }, "10s", "50ms").Should(Equal("cancelled"))
		next, err := h.App.Queue.Enqueue(ctx, &owner, uniquePayload{})
		Expect(err).NotTo(HaveOccurred(), "once over, the same work may be queued again")
		Expect(next).NotTo(Equal(first))
		wait(next, jobs.Completed)
	})

	It("runs an urgent job before bulk work that was queued first", func() {
		var bulk []uuid.UUID
		var urgent uuid.UUID
		// One commit: every job becomes available at once, the urgent one last.
		Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
			for range 6 {
				id, err := h.App.Queue.Enqueue(ctx, nil, bulkPayload{})
				Expect(err).NotTo(HaveOccurred())
				bulk = append(bulk, id)
			}
			var err error
			urgent, err = h.App.Queue.Enqueue(ctx, nil, urgentPayload{})
			return err
		})).To(Succeed())
		for _, id := range append(bulk, urgent) {
			wait(id, jobs.Completed)
		}
		var later int
		Expect(h.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM river.river_job b, river.river_job u
			WHERE b.id IN (SELECT job_id FROM platform.job_progress WHERE public_id IN ?)
			AND u.id = (SELECT job_id FROM platform.job_progress WHERE public_id = ?)
			AND b.attempted_at < u.attempted_at`, bulk, urgent).Scan(&later).Error).To(Succeed())
		Expect(later).To(BeZero(), "no bulk job was taken before the urgent one")
	})

	It("takes up a job whose worker died, and gives up on one whose workers kept dying", func() {
		// What a crashed worker leaves behind: River's row running, its run
		// older than the kind's time limit. The second job's earlier runs
		// were already taken back from dead workers twice.
		crashed := func(steps int, deaths int) uuid.UUID {
			var id uuid.UUID
			Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
				var err error
				id, err = h.App.Queue.Enqueue(ctx, &owner, stepsPayload{Steps: steps})
				Expect(err).NotTo(HaveOccurred())
				return h.App.DB.Conn(ctx).Exec(`UPDATE river.river_job SET state = 'running', attempt = 1,
					attempted_at = now() - interval '1 hour', attempted_by = ARRAY['dead-host'],
					errors = (SELECT array_agg(jsonb_build_object('at', now(), 'attempt', 1, 'error', 'Stuck job rescued by JobRescuer', 'trace', ''))
						FROM generate_series(1, ?))
					WHERE id = (SELECT job_id FROM platform.job_progress WHERE public_id = ?)`, deaths, id).Error
			})).To(Succeed())
			return id
		}
		once, thrice := crashed(1, 0), crashed(2, h.Config.Jobs.MaxAttempts-1)

		// River's rescuer sweeps every 30 s on the leader.
		rec := waitWithin(once, jobs.Completed, "90s")
		Expect(rec.Attempts).To(Equal(2))
		var result map[string]int
		Expect(rec.Decode(&result)).To(Succeed())
		Expect(result).To(HaveKeyWithValue("attempt", 2))

		rec = waitWithin(thrice, jobs.Failed, "90s")
		Expect(rec.Error).To(Equal(fmt.Sprintf("abandoned: its worker stopped %d times", h.Config.Jobs.MaxAttempts)))
		Expect(rec.Steps).To(BeEmpty(), "given up on without running it again")
	})
})

var _ = Describe("The scheduler", func() {
	It("lets exactly one of two schedulers lead, and moves leadership when the leader stops", func() {
		var mu sync.Mutex
		runs := map[string]int{}
		lockKey := time.Now().UnixNano() // private to this test
		start := func(name string) (*scheduler.Scheduler, context.CancelFunc, chan struct{}) {
			s := scheduler.NewWithLock(h.App.DB, h.Config.Scheduler, slog.New(slog.DiscardHandler), metrics.New(), lockKey, nil)
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
	It("prunes old delivered events and dedupe records, and River deletes jobs finished longer ago than jobs.retention", func() {
		ctx := context.Background()
		conn := h.App.DB.Conn(ctx)
		Expect(conn.Exec(`INSERT INTO events."test.ping.v1" (uuid, payload, transaction_id, created_at)
			VALUES ('old-msg', '{}', pg_current_xact_id(), now() - interval '40 days')`).Error).To(Succeed())
		Expect(conn.Exec(`INSERT INTO events.processed VALUES ('test.alpha', 'old-msg', now() - interval '40 days')`).Error).To(Succeed())
		finished := func(ago string) uuid.UUID {
			var id uuid.UUID
			Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
				var err error
				id, err = h.App.Queue.Enqueue(ctx, nil, stepsPayload{Steps: 1})
				Expect(err).NotTo(HaveOccurred())
				return h.App.DB.Conn(ctx).Exec(`UPDATE river.river_job SET state = 'completed', attempt = 1,
					attempted_at = now() - CAST(? AS interval), finalized_at = now() - CAST(? AS interval)
					WHERE id = (SELECT job_id FROM platform.job_progress WHERE public_id = ?)`, ago, ago, id).Error
			})).To(Succeed())
			return id
		}
		old, recent := finished("40 days"), finished("1 minute")

		n, err := h.App.Bus.Prune(ctx, 30*24*time.Hour)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically(">=", 2))
		var left int
		Expect(conn.Raw(`SELECT count(*) FROM events."test.ping.v1" WHERE uuid = 'old-msg'`).Scan(&left).Error).To(Succeed())
		Expect(left).To(BeZero())

		// River's cleaner sweeps every 30 s on the leader; the job's
		// progress row goes with River's.
		Eventually(func() error { _, err := h.App.Queue.Get(ctx, old); return err }, "90s", "200ms").Should(MatchError(jobs.ErrNotFound))
		Expect(conn.Raw(`SELECT count(*) FROM platform.job_progress WHERE public_id = ?`, old).Scan(&left).Error).To(Succeed())
		Expect(left).To(BeZero())
		_, err = h.App.Queue.Get(ctx, recent)
		Expect(err).NotTo(HaveOccurred())
	})

})
