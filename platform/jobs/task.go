package jobs

import (
	"context"
	"errors"
	"time"
)

// task is a scheduled task's job: its kind is the task's name, so each
// task shows by name among River's jobs.
type task struct {
	Name string `json:"task"`
}

func (t task) Kind() string { return t.Name }

// Task makes a scheduled task background work (the scheduler's
// EveryQueued and DailyQueued): fn becomes the handler of a kind named
// name, run by workers with River's retries and rescue, and the function
// returned queues one run, or nothing while the previous one still waits
// or runs.
func (r *Runner) Task(name string, timeout time.Duration, fn func(ctx context.Context) error) func(ctx context.Context) error {
	register(r, task{Name: name}, Kind[task]{Priority: Background, Unique: OnePerKind, Timeout: timeout,
		Handle: func(ctx context.Context, _ *Run[task]) (any, error) { return nil, fn(ctx) }})
	return func(ctx context.Context) error {
		_, err := r.q.Enqueue(ctx, nil, task{Name: name})
		if errors.Is(err, ErrDuplicate) {
			return nil
		}
		return err
	}
}
