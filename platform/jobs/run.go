package jobs

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Run is one execution of a job, handed to its Handler.
type Run struct {
	ID      uuid.UUID
	Kind    string
	Payload json.RawMessage
	// Attempt counts from 1; above 1 means a previous worker died mid-run, so
	// handlers must be safe to run again.
	Attempt int

	runner *Runner
	cancel context.CancelFunc
	gone   atomic.Bool
}

// Decode unmarshals the payload.
func (r *Run) Decode(v any) error { return json.Unmarshal(r.Payload, v) }

// Step appends a progress line clients can poll. It returns ErrCancelled once
// the job was cancelled or is no longer this worker's; the handler should
// then return.
func (r *Run) Step(ctx context.Context, name, detail string) error {
	step, _ := json.Marshal([]Step{{Name: name, Detail: detail, At: time.Now().UTC()}})
	res := r.runner.db.Detached(context.WithoutCancel(ctx)).Exec(`UPDATE platform.jobs
		SET steps = steps || ?::jsonb, updated_at = now()
		WHERE id = ? AND status = 'running' AND worker = ?`, string(step), r.ID, r.runner.worker)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		r.markLost()
		return ErrCancelled
	}
	return ctx.Err()
}

func (r *Run) markLost() {
	r.gone.Store(true)
	r.cancel()
}

func (r *Run) lost() bool { return r.gone.Load() }
