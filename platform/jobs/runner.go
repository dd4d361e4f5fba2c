package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// Runner claims and runs jobs of the kinds registered on it.
type Runner struct {
	db       *db.DB
	cfg      config.Jobs
	log      *slog.Logger
	metrics  *metrics.Registry
	worker   string
	handlers map[string]Handler
	// abandoned are the kinds' hooks for a job given up on (OnAbandon).
	abandoned map[string]AbandonHandler
	wake      chan struct{}
}

// AbandonHandler is told that a job was given up on after its worker
// stopped max_attempts times (reason says so), with the job's payload.
type AbandonHandler func(ctx context.Context, payload json.RawMessage, reason string) error

// NewRunner makes a runner; register handlers before Run.
func NewRunner(d *db.DB, cfg config.Jobs, log *slog.Logger, m *metrics.Registry) *Runner {
	host, _ := os.Hostname()
	return &Runner{db: d, cfg: cfg, log: log, metrics: m,
		worker:   fmt.Sprintf("%s/%d/%s", host, os.Getpid(), uuid.NewString()[:8]),
		handlers: map[string]Handler{}, abandoned: map[string]AbandonHandler{}, wake: make(chan struct{}, 1)}
}

// OnAbandon registers what else to do when a job of kind is given up on:
// the job itself ends failed, and the module can fail the work it was doing
// where its users look (a job that crashes its worker on some input never
// reaches its handler's own failure path).
func (r *Runner) OnAbandon(kind string, h AbandonHandler) { r.abandoned[kind] = h }

// Handle registers the handler for a kind.
func (r *Runner) Handle(kind string, h Handler) {
	if _, dup := r.handlers[kind]; dup {
		panic("jobs: two handlers for kind " + kind)
	}
	r.handlers[kind] = h
}

// Run works until ctx ends, then waits for in-flight jobs up to grace; jobs
// still running after that are released (lease expired now) so another
// worker takes them up at once.
func (r *Runner) Run(ctx context.Context, grace time.Duration) error {
	if len(r.handlers) == 0 {
		<-ctx.Done()
		return nil
	}
	kinds := make([]string, 0, len(r.handlers))
	for k := range r.handlers {
		kinds = append(kinds, k)
	}
	go r.listen(ctx)

	// Handlers get a context that outlives ctx by the grace period.
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	var wg sync.WaitGroup
	slots := make(chan struct{}, r.cfg.Concurrency)
	ticker := time.NewTicker(r.cfg.PollInterval)
	defer ticker.Stop()
loop:
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			break loop
		}
		rec, err := r.claim(ctx, kinds)
		if err != nil || rec == nil {
			<-slots
			if err != nil && ctx.Err() == nil {
				r.log.Warn("jobs: claim failed", "error", err)
			}
			select {
			case <-ctx.Done():
				break loop
			case <-ticker.C:
			case <-r.wake:
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			r.execute(workCtx, rec)
		}()
	}

	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		cancelWork()
		<-done
	}
	return nil
}

// claim takes the oldest pending job, or a running one whose lease expired.
func (r *Runner) claim(ctx context.Context, kinds []string) (*row, error) {
	var claimed []row
	err := r.db.Detached(ctx).Raw(`
		UPDATE platform.jobs SET status = 'running', attempts = attempts + 1, worker = ?,
			lease_until = now() + ? * interval '1 millisecond',
			started_at = coalesce(started_at, now()), updated_at = now()
		WHERE id = (
			SELECT id FROM platform.jobs
			WHERE kind IN ? AND (status = 'pending' OR (status = 'running' AND lease_until < now()))
			ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
		RETURNING id, kind, payload, trace, attempts, max_attempts`,
		r.worker, r.cfg.Lease.Milliseconds(), kinds).Scan(&claimed).Error
	if err != nil || len(claimed) == 0 {
		return nil, err
	}
	return &claimed[0], nil
}

// execute runs one claimed job to its end.
func (r *Runner) execute(ctx context.Context, rw *row) {
	start := time.Now()
	log := r.log.With("job_id", rw.ID, "kind", rw.Kind, "attempt", rw.Attempts)
	if rw.Attempts > rw.MaxAttempts {
		reason := fmt.Sprintf("abandoned: its worker stopped %d times", rw.MaxAttempts)
		r.finish(ctx, rw.ID, Failed, nil, reason)
		if h := r.abandoned[rw.Kind]; h != nil {
			if err := r.safeAbandon(ctx, h, rw.Payload, reason); err != nil {
				log.Error("jobs: abandon hook failed", "error", err)
			}
		}
		log.Warn("job abandoned after repeated worker loss")
		r.metrics.ObserveJob(rw.Kind, string(Failed), time.Since(start))
		return
	}
	ctx, span := telemetry.Start(r.continueTrace(ctx, rw), "job "+rw.Kind, trace.SpanKindConsumer,
		attribute.String("job.kind", rw.Kind), attribute.String("job.id", rw.ID.String()), attribute.Int("job.attempt", rw.Attempts))
	var err error
	defer func() { telemetry.End(span, err) }()
	jobCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := &Run{ID: rw.ID, Kind: rw.Kind, Payload: rw.Payload, Attempt: rw.Attempts, runner: r, cancel: cancel}
	stopLease := r.keepLease(jobCtx, run)
	defer stopLease()

	var result any
	result, err = r.safeCall(jobCtx, r.handlers[rw.Kind], run)
	stopLease()
	switch {
	case run.lost():
		log.Info("job stopped: cancelled or taken over")
		r.metrics.ObserveJob(rw.Kind, string(Cancelled), time.Since(start))
		return
	case err != nil:
		log.Warn("job failed", "error", err)
		r.finish(ctx, rw.ID, Failed, nil, err.Error())
		r.metrics.ObserveJob(rw.Kind, string(Failed), time.Since(start))
	default:
		data, merr := json.Marshal(result)
		if merr != nil {
			r.finish(ctx, rw.ID, Failed, nil, "result could not be stored")
			return
		}
		r.finish(ctx, rw.ID, Completed, data, "")
		r.metrics.ObserveJob(rw.Kind, string(Completed), time.Since(start))
	}
}

// continueTrace makes the run a child of the span that enqueued it (the
// carrier stored by Enqueue), so one trace shows a request and the work it
// queued. A carrier that cannot be read only loses that link.
func (r *Runner) continueTrace(ctx context.Context, rw *row) context.Context {
	if len(rw.Trace) == 0 || !telemetry.Enabled() {
		return ctx
	}
	var carrier map[string]string
	if err := json.Unmarshal(rw.Trace, &carrier); err != nil {
		r.log.Debug("jobs: unreadable trace context", "job_id", rw.ID, "error", err)
		return ctx
	}
	return telemetry.Extract(ctx, carrier)
}

func (r *Runner) safeCall(ctx context.Context, h Handler, run *Run) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("job panicked", "job_id", run.ID, "panic", p)
			err = errors.New("internal error")
		}
	}()
	return h(ctx, run)
}

func (r *Runner) safeAbandon(ctx context.Context, h AbandonHandler, payload json.RawMessage, reason string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h(context.WithoutCancel(ctx), payload, reason)
}

// finish records the outcome unless the job was cancelled or taken over.
func (r *Runner) finish(ctx context.Context, id uuid.UUID, st Status, result []byte, msg string) {
	var errMsg *string
	if msg != "" {
		errMsg = &msg
	}
	err := r.db.Detached(context.WithoutCancel(ctx)).Exec(`
		UPDATE platform.jobs SET status = ?, result = ?, error = ?, finished_at = now(),
			updated_at = now(), lease_until = NULL
		WHERE id = ? AND status = 'running' AND worker = ?`, string(st), nullJSON(result), errMsg, id, r.worker).Error
	if err != nil {
		r.log.Error("jobs: cannot record outcome", "job_id", id, "error", err)
	}
}

func nullJSON(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// keepLease renews the lease every third of its length and cancels the run
// when the job is no longer ours (cancelled, or the lease was lost).
func (r *Runner) keepLease(ctx context.Context, run *Run) (stop func()) {
	stopCh := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(r.cfg.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stopCh:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if !r.renew(ctx, run.ID) {
					run.markLost()
					return
				}
			}
		}
	}()
	return func() { once.Do(func() { close(stopCh) }) }
}

func (r *Runner) renew(ctx context.Context, id uuid.UUID) bool {
	res := r.db.Detached(ctx).Exec(`UPDATE platform.jobs
		SET lease_until = now() + ? * interval '1 millisecond', updated_at = now()
		WHERE id = ? AND status = 'running' AND worker = ?`, r.cfg.Lease.Milliseconds(), id, r.worker)
	if res.Error != nil {
		return true // a transient error is not a lost lease; try again next tick
	}
	return res.RowsAffected == 1
}

// listen wakes the runner on NOTIFY so queued work starts without waiting
// for the next poll.
func (r *Runner) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := r.listenOnce(ctx)
		if err != nil && ctx.Err() == nil {
			r.log.Debug("jobs: listen interrupted", "error", err)
			select {
			case <-ctx.Done():
			case <-time.After(r.cfg.PollInterval):
			}
		}
	}
}

func (r *Runner) listenOnce(ctx context.Context) error {
	return r.db.Listen(ctx, notifyChannel, nil, func(string) {
		select {
		case r.wake <- struct{}{}:
		default:
		}
	})
}
