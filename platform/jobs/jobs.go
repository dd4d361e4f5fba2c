// Package jobs runs on-demand background tasks (process_pdf, extract_quiz,
// regenerate_embeddings, ...) on River (riverqueue.com). A module declares a
// kind (Register): its typed arguments, its handler, how urgent it is,
// whether two requests may queue the same work, and how long a run may
// take. Enqueue inserts the River job inside the caller's gorm transaction
// (riverdatabasesql on that transaction), so creating the job stays one act
// with the write that asks for it; worker processes run the jobs on
// riverpgxv5. River retries a run that failed for a passing reason with
// backoff, and its rescuer takes up a job whose worker died. What clients
// poll beside River's row lives in platform.job_progress: the job's public
// id, owner, progress steps and result or failure.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/platform/db"
)

// Status is a job's state as clients see it.
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

// Record is a job as clients poll it.
type Record struct {
	ID         uuid.UUID
	Kind       string
	OwnerID    *int64
	Status     Status
	Payload    json.RawMessage // the job's arguments
	Steps      []Step
	Result     json.RawMessage
	Error      string
	Attempts   int
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
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
	// ErrDuplicate: a kind declared Unique already has this work waiting or
	// running; Enqueue answers that job's id with it.
	ErrDuplicate = errors.New("jobs: the same work is already queued")
	// ErrNotFound: no such job. It is the platform's one not-found
	// sentinel (db.ErrNotFound), so the error table maps it to 404.
	ErrNotFound = db.ErrNotFound
	// ErrNotCancellable: the job is already over.
	ErrNotCancellable = errors.New("jobs: job is not running")
	// ErrCancelled is returned from Step once the job was cancelled (or is
	// no longer this run's); handlers return it to stop.
	ErrCancelled = errors.New("jobs: cancelled")
)

// Args are a kind's typed arguments (River's JobArgs): a JSON-encodable
// struct whose Kind names the kind, so a handler only ever receives the
// arguments its kind is queued with.
type Args interface{ Kind() string }

// Handler does the work of one kind. Its result is stored as JSON. It
// should return promptly when ctx ends or Step returns ErrCancelled.
type Handler[A Args] func(ctx context.Context, run *Run[A]) (result any, err error)

// Priority orders waiting jobs: every Urgent job is fetched before any
// Normal one, and so on (River's priorities 1 to 4).
type Priority int

// Priorities.
const (
	Urgent     Priority = 1 // a person waits on it (a moderator's extraction)
	Normal     Priority = 2 // the default
	Background Priority = 3 // housekeeping nobody waits on
	Bulk       Priority = 4 // long work over everything (a re-embedding)
)

// Uniqueness says which requests count as the same work.
type Uniqueness int

// Kinds of uniqueness.
const (
	// NotUnique: every request queues a job.
	NotUnique Uniqueness = iota
	// OnePerKind: while a job of the kind waits or runs, a request for
	// another gets that one (ErrDuplicate).
	OnePerKind
	// OnePerArgs: the same, among jobs with equal arguments.
	OnePerArgs
)

// Kind declares one kind of job (Register).
type Kind[A Args] struct {
	Handle   Handler[A]
	Priority Priority // zero is Normal
	Unique   Uniqueness
	// Timeout is the longest one run may take: its context ends then. It
	// is also how long a job whose worker died waits before another worker
	// takes it up (at least jobs.rescue_after), so keep it near the longest
	// real run. Required.
	Timeout time.Duration
	// Abandoned, if set, is told that a job was given up on because its
	// workers kept dying (jobs.max_attempts times), with the job's
	// arguments: the job ends failed, and the module can fail the work it
	// was doing where its users look (a job that crashes its worker never
	// reaches its own failure path).
	Abandoned func(ctx context.Context, args A, reason string) error
}
