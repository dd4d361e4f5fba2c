// Package scheduler runs the periodic jobs (UTC) on exactly one leader,
// however many scheduler processes run: gocron v2 asks the Postgres
// advisory-lock Elector before each run, and standbys take over when the
// leader stops. A task of a few statements runs on the leader (Every,
// Daily); a longer one is queued as a background job each time
// (EveryQueued, DailyQueued), so workers run it with the queue's retries,
// rescue and limits, and the leader only decides when.
package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-co-op/gocron/v2"
	"go.opentelemetry.io/otel/trace"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// Func is one scheduled job's work.
type Func func(ctx context.Context) error

type entry struct {
	name string
	def  gocron.JobDefinition
	fn   Func
}

// Scheduler collects jobs from modules and runs them while leading.
type Scheduler struct {
	cfg     config.Scheduler
	log     *slog.Logger
	metrics *metrics.Registry
	elector *Elector
	tasks   Tasks
	entries []entry
}

// Tasks makes a scheduled task background work (platform/jobs' Runner):
// fn becomes a job kind named name, and the function returned queues a
// run of it.
type Tasks interface {
	Task(name string, timeout time.Duration, fn func(ctx context.Context) error) func(ctx context.Context) error
}

// New makes a scheduler whose leader holds the default lock and queues
// its longer tasks on tasks.
func New(d *db.DB, cfg config.Scheduler, log *slog.Logger, m *metrics.Registry, tasks Tasks) *Scheduler {
	return NewWithLock(d, cfg, log, m, leaderLock, tasks)
}

// NewWithLock uses another lock key (tests run several groups side by
// side, each leading its own); tasks may be nil when nothing is queued.
func NewWithLock(d *db.DB, cfg config.Scheduler, log *slog.Logger, m *metrics.Registry, key int64, tasks Tasks) *Scheduler {
	return &Scheduler{cfg: cfg, log: log, metrics: m, elector: NewElector(d, key), tasks: tasks}
}

// Every registers fn to run at a fixed interval.
func (s *Scheduler) Every(name string, interval time.Duration, fn Func) {
	s.entries = append(s.entries, entry{name: name, def: gocron.DurationJob(interval), fn: fn})
}

// Daily registers fn to run once a day at hour:minute UTC.
func (s *Scheduler) Daily(name string, hour, minute uint, fn Func) {
	s.entries = append(s.entries, entry{name: name,
		def: gocron.DailyJob(1, gocron.NewAtTimes(gocron.NewAtTime(hour, minute, 0))), fn: fn})
}

// A queued task's run may take its period (a longer run would overlap
// the next), at least a minute and at most an hour: the job's time limit,
// which is also how long a task whose worker died waits to be taken up.
const (
	queuedMin = time.Minute
	queuedMax = time.Hour
)

// EveryQueued queues fn as a background job at a fixed interval; a run
// still waiting or running when the next is due is not doubled.
func (s *Scheduler) EveryQueued(name string, interval time.Duration, fn Func) {
	s.Every(name, interval, s.tasks.Task(name, min(max(interval, queuedMin), queuedMax), fn))
}

// DailyQueued queues fn as a background job once a day at hour:minute UTC.
func (s *Scheduler) DailyQueued(name string, hour, minute uint, fn Func) {
	s.Daily(name, hour, minute, s.tasks.Task(name, queuedMax, fn))
}

// Leading reports whether this process leads now.
func (s *Scheduler) Leading(ctx context.Context) bool { return s.elector.IsLeader(ctx) == nil }

// Run schedules every registered job and blocks until ctx ends; then it
// waits for running jobs (up to grace) and releases leadership.
func (s *Scheduler) Run(ctx context.Context, grace time.Duration) error {
	gs, err := gocron.NewScheduler(
		gocron.WithLocation(time.UTC),
		gocron.WithDistributedElector(s.elector),
		gocron.WithStopTimeout(grace),
	)
	if err != nil {
		return err
	}
	for _, e := range s.entries {
		_, err := gs.NewJob(e.def, gocron.NewTask(s.wrap(e)),
			gocron.WithName(e.name),
			gocron.WithContext(ctx),
			gocron.WithSingletonMode(gocron.LimitModeReschedule),
		)
		if err != nil {
			return fmt.Errorf("scheduler: %s: %w", e.name, err)
		}
	}
	gs.Start()
	s.watchLeadership(ctx)
	err = gs.Shutdown()
	s.elector.Release(context.Background())
	s.metrics.SetLeader(false)
	return err
}

func (s *Scheduler) wrap(e entry) func(ctx context.Context) {
	return func(ctx context.Context) {
		start := time.Now()
		ctx, span := telemetry.Start(ctx, "scheduled "+e.name, trace.SpanKindInternal)
		err := e.fn(ctx)
		telemetry.End(span, err)
		outcome := "completed"
		if err != nil {
			outcome = "failed"
			s.log.Error("scheduled job failed", "job", e.name, "error", err)
		}
		s.metrics.ObserveJob("scheduled:"+e.name, outcome, time.Since(start))
	}
}

// watchLeadership keeps the leader gauge current and lets a standby take the
// lock between job runs.
func (s *Scheduler) watchLeadership(ctx context.Context) {
	t := time.NewTicker(s.cfg.LeaderCheck)
	defer t.Stop()
	was := false
	for {
		now := s.Leading(ctx)
		if now != was {
			s.log.Info("scheduler leadership changed", "leading", now)
			s.metrics.SetLeader(now)
			was = now
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
