package platform_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/jobs"
)

var pingTopic = events.NewTopic[ping]("test.ping.v1")

// lagTopic's one group holds every event until lagGate is closed, so the
// outbox lag can be read while a message waits for its handler.
var lagTopic = events.NewTopic[ping]("test.lag.v1")

var lagGate = make(chan struct{})

// heldTopic's one group holds every event until heldGate is closed: the
// admins' outbox route reads it while events wait.
var heldTopic = events.NewTopic[ping]("test.held.v1")

var heldGate = make(chan struct{})

type ping struct {
	ID   string `json:"id"`
	Fail bool   `json:"fail"`
}

// probe counts handler invocations in memory; delivered rows go to a table
// written inside the handler's transaction.
type probeState struct {
	mu    sync.Mutex
	calls map[string]int // group/id -> handler calls
}

func newProbe() *probeState { return &probeState{calls: map[string]int{}} }

func (p *probeState) called(group, id string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[group+"/"+id]
}

func (p *probeState) record(group, id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[group+"/"+id]++
}

func registerTestSubscribers(a *app.App) {
	ctx := context.Background()
	must(a.DB.Conn(ctx).Exec(`SELECT events.ensure_topic(?)`, pingTopic.Name()).Error)
	must(a.DB.Conn(ctx).Exec(`CREATE TABLE public.test_deliveries (grp text, id text)`).Error)
	for _, group := range []string{"test.alpha", "test.beta"} {
		events.Subscribe(a.Bus, group, pingTopic, func(ctx context.Context, p ping, _ events.Meta) error {
			probe.record(group, p.ID)
			if p.Fail {
				return errors.New("this event always fails")
			}
			return a.DB.Conn(ctx).Exec(`INSERT INTO public.test_deliveries VALUES (?, ?)`, group, p.ID).Error
		})
	}
	gated := []struct {
		group string
		topic events.Topic[ping]
		gate  chan struct{}
	}{{"test.gated", lagTopic, lagGate}, {"test.held", heldTopic, heldGate}}
	for _, g := range gated {
		must(a.DB.Conn(ctx).Exec(`SELECT events.ensure_topic(?)`, g.topic.Name()).Error)
		events.Subscribe(a.Bus, g.group, g.topic, func(ctx context.Context, p ping, _ events.Meta) error {
			select {
			case <-g.gate:
				return a.DB.Conn(ctx).Exec(`INSERT INTO public.test_deliveries VALUES (?, ?)`, g.group, p.ID).Error
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}
}

// stepsPayload is a test.steps job: it records Steps steps, then (Block)
// keeps recording one until it is cancelled.
type stepsPayload struct {
	Steps int  `json:"steps"`
	Block bool `json:"block"`
}

func (stepsPayload) Kind() string { return "test.steps" }

// failPayload is a test.fail job, which fails for good at once; with
// Passing, with a failure worth retrying (the database went away).
type failPayload struct {
	Passing bool `json:"passing"`
}

func (failPayload) Kind() string { return "test.fail" }

// uniquePayload is a test.unique job: one waits or runs at a time; with
// Block it keeps recording a step until cancelled.
type uniquePayload struct {
	Block bool `json:"block"`
}

func (uniquePayload) Kind() string { return "test.unique" }

// bulkPayload and urgentPayload are jobs of the lowest and the highest
// priority that do nothing.
type (
	bulkPayload   struct{}
	urgentPayload struct{}
)

func (bulkPayload) Kind() string   { return "test.bulk" }
func (urgentPayload) Kind() string { return "test.urgent" }

// oncePayload is a test.once job: it stores a row and records its result
// in the same transaction (Run.Done), so running it again stores nothing.
type oncePayload struct{}

func (oncePayload) Kind() string { return "test.once" }

// onceRuns counts the times test.once's handler was called.
var onceRuns atomic.Int64

// failRuns counts test.fail's runs.
var failRuns atomic.Int64

func registerTestJobs(a *app.App) {
	jobs.Register(a.Runner, jobs.Kind[stepsPayload]{Timeout: 30 * time.Second, Handle: func(ctx context.Context, run *jobs.Run[stepsPayload]) (any, error) {
		p := run.Args
		for i := 1; i <= p.Steps; i++ {
			if err := run.Step(ctx, "step", time.Now().Format(time.RFC3339Nano)); err != nil {
				return nil, err
			}
		}
		for p.Block {
			if err := run.Step(ctx, "waiting", ""); err != nil {
				return nil, err
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		return map[string]any{"steps": p.Steps, "attempt": run.Attempt}, nil
	}})
	jobs.Register(a.Runner, jobs.Kind[failPayload]{Timeout: 30 * time.Second, Handle: func(_ context.Context, run *jobs.Run[failPayload]) (any, error) {
		failRuns.Add(1)
		if run.Args.Passing {
			return nil, fmt.Errorf("the database went away on attempt %d: %w", run.Attempt, driver.ErrBadConn)
		}
		return nil, errors.New("the parser choked on page 3")
	}})
	jobs.Register(a.Runner, jobs.Kind[uniquePayload]{Unique: jobs.OnePerKind, Timeout: 30 * time.Second,
		Handle: func(ctx context.Context, run *jobs.Run[uniquePayload]) (any, error) {
			for run.Args.Block {
				if err := run.Step(ctx, "waiting", ""); err != nil {
					return nil, err
				}
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(50 * time.Millisecond):
				}
			}
			return nil, nil
		}})
	must(a.DB.Conn(context.Background()).Exec(`CREATE TABLE IF NOT EXISTS public.test_once (job uuid)`).Error)
	jobs.Register(a.Runner, jobs.Kind[oncePayload]{Timeout: 30 * time.Second,
		Handle: func(ctx context.Context, run *jobs.Run[oncePayload]) (any, error) {
			onceRuns.Add(1)
			out := map[string]string{"stored": run.ID.String()}
			return out, a.DB.Tx(ctx, func(ctx context.Context) error {
				if err := a.DB.Conn(ctx).Exec(`INSERT INTO public.test_once (job) VALUES (?)`, run.ID).Error; err != nil {
					return err
				}
				return run.Done(ctx, out)
			})
		}})
	jobs.Register(a.Runner, jobs.Kind[bulkPayload]{Priority: jobs.Bulk, Timeout: 30 * time.Second,
		Handle: func(context.Context, *jobs.Run[bulkPayload]) (any, error) { return nil, nil }})
	jobs.Register(a.Runner, jobs.Kind[urgentPayload]{Priority: jobs.Urgent, Timeout: 30 * time.Second,
		Handle: func(context.Context, *jobs.Run[urgentPayload]) (any, error) { return nil, nil }})
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
