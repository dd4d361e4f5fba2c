package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/metrics"
)

// poolSize is the worker's own pool for River (riverpgxv5): handlers use
// the gorm pool, so River needs few connections: one held for LISTEN, one
// for leader maintenance, a fetch and up to two completion batches at once.
const poolSize = 6

// Runner runs the registered kinds' jobs in a worker process.
type Runner struct {
	q       *Queue
	dbURL   string
	log     *slog.Logger
	metrics *metrics.Registry
}

// NewRunner makes the runner of q's kinds; register kinds before Run.
func NewRunner(q *Queue, database config.Database, log *slog.Logger, m *metrics.Registry) *Runner {
	return &Runner{q: q, dbURL: database.URL, log: log, metrics: m}
}

// Register declares a kind of job and its handler. Every process registers
// every kind (a serve process queues what worker processes run); two
// registrations of one kind panic, as does a kind without a timeout.
func Register[A Args](r *Runner, k Kind[A]) {
	var args A
	register(r, args, k)
}

// register registers k for the kind args names (a scheduled task's kind is
// its name, so it is named by a value rather than by the type).
func register[A Args](r *Runner, args A, k Kind[A]) {
	kind := args.Kind()
	if k.Handle == nil || k.Timeout <= 0 {
		panic("jobs: kind " + kind + " needs a handler and a timeout")
	}
	if _, dup := r.q.kinds[kind]; dup {
		panic("jobs: two registrations of kind " + kind)
	}
	opts := river.InsertOpts{Priority: int(cmp.Or(k.Priority, Normal)), MaxAttempts: r.q.cfg.MaxAttempts + 1}
	switch k.Unique {
	case OnePerKind:
		opts.UniqueOpts = river.UniqueOpts{ByState: waitingOrRunning}
	case OnePerArgs:
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true, ByState: waitingOrRunning}
	}
	r.q.kinds[kind] = opts
	river.AddWorkerArgs(r.q.workers, args, &worker[A]{r: r, k: k})
}

// waitingOrRunning are the states in which a unique job holds its place:
// once it is over, the same work may be queued again.
var waitingOrRunning = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
	rivertype.JobStateRetryable, rivertype.JobStateRunning, rivertype.JobStateScheduled}

// Run works until ctx ends on River's worker client (riverpgxv5, its own
// small pool), then waits for running jobs up to grace; jobs still running
// after that see their context end and are put back for another worker.
func (r *Runner) Run(ctx context.Context, grace time.Duration) error {
	if len(r.q.kinds) == 0 {
		<-ctx.Done()
		return nil
	}
	pcfg, err := pgxpool.ParseConfig(r.dbURL)
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	pcfg.MaxConns = poolSize
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	defer pool.Close()
	cfg := r.q.cfg
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Schema:                      db.RiverSchema,
		Workers:                     r.q.workers,
		Queues:                      map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Concurrency}},
		FetchPollInterval:           cfg.PollInterval,
		FetchCooldown:               cfg.FetchCooldown,
		PollOnly:                    cfg.PollOnly,
		JobTimeout:                  -1, // every kind has its own (Kind.Timeout)
		RescueStuckJobsAfter:        cfg.RescueAfter,
		CompletedJobRetentionPeriod: cfg.Retention,
		CancelledJobRetentionPeriod: cfg.Retention,
		DiscardedJobRetentionPeriod: cfg.Retention,
		SoftStopTimeout:             grace,
		Logger:                      r.log,
		Middleware:                  []rivertype.Middleware{&tracing{}},
	})
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	// Start's context ending is River's soft stop: no new jobs, running
	// ones get SoftStopTimeout, then their contexts end.
	for {
		err := client.Start(ctx)
		if err == nil {
			<-client.Stopped()
			return nil
		}
		r.log.Warn("jobs: cannot start the worker; trying again", "error", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(cfg.PollInterval):
		}
	}
}

// worker runs one kind's jobs for River.
type worker[A Args] struct {
	river.WorkerDefaults[A]
	r *Runner
	k Kind[A]
}

// Timeout is the kind's: River ends the run's context then, and its
// rescuer leaves a running job alone until then.
func (w *worker[A]) Timeout(*river.Job[A]) time.Duration { return w.k.Timeout }

// NextRetry retries at once a job River's rescuer took back from a dead
// worker (its run outlived the kind's time limit, so it has waited that
// long already); a failed run waits River's backoff (1 s, then 16 s).
func (w *worker[A]) NextRetry(job *river.Job[A]) time.Time {
	if job.AttemptedAt != nil && time.Since(*job.AttemptedAt) >= w.k.Timeout {
		return time.Now()
	}
	return time.Time{}
}

// Work runs one attempt and reports its outcome to metrics.
func (w *worker[A]) Work(ctx context.Context, job *river.Job[A]) error {
	start := time.Now()
	outcome, err := w.work(ctx, job)
	w.r.metrics.ObserveJob(job.Kind, outcome, time.Since(start))
	return err
}

// work decides what River does with the job after this attempt: nil
// completes it; a plain error is retried with River's backoff (a passing
// failure, or the worker stopping); river.JobCancel ends it for good,
// failed with its reason recorded.
func (w *worker[A]) work(ctx context.Context, job *river.Job[A]) (outcome string, err error) {
	q := w.r.q
	log := w.r.log.With("job_id", job.ID, "kind", job.Kind, "attempt", job.Attempt)
	p, err := q.begin(ctx, job.ID)
	if err != nil {
		return "retried", err
	}
	if p.Done {
		return string(Completed), nil // an earlier run's work and result committed together (Run.Done)
	}
	if deaths := workerDeaths(job.Errors); deaths >= q.cfg.MaxAttempts {
		reason := abandoned(deaths)
		if w.k.Abandoned != nil {
			if err := safeAbandon(ctx, w.k.Abandoned, job.Args, reason); err != nil {
				log.Error("jobs: abandon hook failed", "error", err)
			}
		}
		log.Warn("job abandoned after repeated worker loss")
		return string(Failed), q.fail(ctx, job.ID, reason)
	}
	spanJob(ctx, p.PublicID)
	run := &Run[A]{ID: p.PublicID, Args: job.Args, Attempt: job.Attempt, q: q, jobID: job.ID}
	result, err := safeCall(ctx, w.k.Handle, run, log)
	switch {
	case err == nil:
		recorded, err := q.record(context.WithoutCancel(ctx), job.ID, result)
		switch {
		case err != nil:
			return "retried", err
		case !recorded:
			return string(Cancelled), river.JobCancel(ErrCancelled) // cancelled as it finished
		}
		return string(Completed), nil
	case errors.Is(err, ErrCancelled) || errors.Is(context.Cause(ctx), rivertype.ErrJobCancelledRemotely):
		log.Info("job stopped: cancelled or taken over")
		return string(Cancelled), river.JobCancel(ErrCancelled)
	case errors.Is(ctx.Err(), context.Canceled):
		return "interrupted", err // the worker is stopping: River puts the job back
	case passing(err) && job.Attempt < q.cfg.MaxAttempts:
		log.Warn("job failed; trying again", "error", err)
		_ = run.Step(ctx, "trying again", err.Error())
		return "retried", err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("stopped after its time limit of %s: %w", w.k.Timeout, err)
	}
	log.Warn("job failed", "error", err)
	return string(Failed), q.fail(ctx, job.ID, err.Error())
}

// passing reports a failure a later run may not meet: the database could
// not be reached (an outage, a restart). A model call that failed is not
// one: the gateway has retried it already (ai.retries), and a stalled
// model would hold a run for its whole timeout again.
func passing(err error) bool { return db.IsUnreachable(err) }

// progress is what a run needs of its job's progress row.
type progress struct {
	PublicID uuid.UUID
	Done     bool // a result is recorded: an earlier run finished the work
}

// begin notes the run's start and reads the job's progress row.
func (q *Queue) begin(ctx context.Context, jobID int64) (*progress, error) {
	var p progress
	res := q.db.Detached(ctx).Raw(`UPDATE platform.job_progress SET started_at = coalesce(started_at, now())
		WHERE job_id = ? RETURNING public_id, result IS NOT NULL AS done`, jobID).Scan(&p)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, river.JobCancel(fmt.Errorf("jobs: job %d has no progress record", jobID))
	}
	return &p, nil
}

// fail records why the job failed and ends it for good.
func (q *Queue) fail(ctx context.Context, jobID int64, reason string) error {
	err := q.db.Detached(context.WithoutCancel(ctx)).
		Exec(`UPDATE platform.job_progress SET error = ? WHERE job_id = ?`, reason, jobID).Error
	if err != nil {
		q.log.Error("jobs: cannot record a failure", "job_id", jobID, "reason", reason, "error", err)
	}
	return river.JobCancel(errors.New(reason))
}

// workerDeaths counts the runs River's rescuer took back from a worker
// that stopped answering.
func workerDeaths(errs []rivertype.AttemptError) int {
	n := 0
	for _, e := range errs {
		if e.Error == rescued {
			n++
		}
	}
	return n
}

func safeCall[A Args](ctx context.Context, h Handler[A], run *Run[A], log *slog.Logger) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("job panicked", "panic", p)
			err = errors.New("internal error")
		}
	}()
	return h(ctx, run)
}

func safeAbandon[A Args](ctx context.Context, h func(context.Context, A, string) error, args A, reason string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h(context.WithoutCancel(ctx), args, reason)
}
