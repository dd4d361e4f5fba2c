package platform_test

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/jobs"
)

const pingTopic = "test.ping.v1"

// lagTopic's one group holds every event until lagGate is closed, so the
// outbox lag can be read while a message waits for its handler.
const lagTopic = "test.lag.v1"

var lagGate = make(chan struct{})

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
	must(a.DB.Conn(ctx).Exec(`SELECT events.ensure_topic(?)`, pingTopic).Error)
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
	must(a.DB.Conn(ctx).Exec(`SELECT events.ensure_topic(?)`, lagTopic).Error)
	events.Subscribe(a.Bus, "test.gated", lagTopic, func(ctx context.Context, p ping, _ events.Meta) error {
		select {
		case <-lagGate:
			return a.DB.Conn(ctx).Exec(`INSERT INTO public.test_deliveries VALUES ('test.gated', ?)`, p.ID).Error
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

type stepsPayload struct {
	Steps int  `json:"steps"`
	Block bool `json:"block"`
}

func registerTestJobs(a *app.App) {
	a.Runner.Handle("test.steps", func(ctx context.Context, run *jobs.Run) (any, error) {
		var p stepsPayload
		if err := run.Decode(&p); err != nil {
			return nil, err
		}
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
	})
	a.Runner.Handle("test.fail", func(context.Context, *jobs.Run) (any, error) {
		return nil, errors.New("the parser choked on page 3")
	})
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
