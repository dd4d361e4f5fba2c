// Package jobs runs on-demand background tasks (process_pdf, extract_quiz,
// regenerate_embeddings, ...). The platform.jobs table is the queue: a job row
// is inserted inside the caller's transaction (so creating the job and
// dispatching it are one act), workers claim rows with FOR UPDATE SKIP LOCKED
// under a lease they keep renewing, append progress steps that clients poll,
// and stop cooperatively when the job is cancelled. A job whose worker died
// is taken up again once its lease expires, at most max_attempts times.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/platform/db"
)

// Status is a job's state.
type Status string

// Job states.
const (
	Pending   Status = "pending"
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// Terminal reports whether the job is over.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// Step is one line of progress.
type Step struct {
	Name   string    `json:"name"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// Record is a job as stored.
type Record struct {
	ID         uuid.UUID
	Kind       string
	OwnerID    *int64
	Status     Status
	Payload    json.RawMessage
	Steps      []Step
	Result     json.RawMessage
	Error      string
	Attempts   int
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
	UpdatedAt  time.Time
}

// Decode unmarshals the job's result.
func (r *Record) Decode(v any) error {
	if len(r.Result) == 0 {
		return errors.New("jobs: no result")
	}
	return json.Unmarshal(r.Result, v)
}

// Errors the queue reports.
var (
	// ErrQueueFull: the queue cannot accept more work now (jobs.max_pending).
	ErrQueueFull = errors.New("jobs: queue cannot accept more work")
	// ErrNotFound: no such job. It is the platform's one not-found
	// sentinel (db.ErrNotFound), so the error table maps it to 404.
	ErrNotFound = db.ErrNotFound
	// ErrNotCancellable: the job is already over.
	ErrNotCancellable = errors.New("jobs: job is not running")
	// ErrCancelled is returned from Step once the job was cancelled (or its
	// lease lost); handlers return it to stop.
	ErrCancelled = errors.New("jobs: cancelled")
)

// Handler does the work of one kind. Its result is stored as JSON. It should
// return promptly when ctx is cancelled or Step returns ErrCancelled.
type Handler func(ctx context.Context, run *Run) (result any, err error)
