package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/platform/db"
)

// Run is one run of a job, handed to its kind's Handler.
type Run[A Args] struct {
	// ID is the job's id as clients know it.
	ID   uuid.UUID
	Args A
	// Attempt counts from 1; above 1 the job ran before (its worker died,
	// or a run failed for a passing reason), so handlers must be safe to
	// run again: see Done.
	Attempt int

	q     *Queue
	jobID int64 // River's
}

// Step appends a progress line clients can poll. It returns ErrCancelled
// once the job was cancelled or is no longer this run's (its worker was
// taken for dead and another took the job up); the handler should then
// return.
func (r *Run[A]) Step(ctx context.Context, name, detail string) error {
	step, err := json.Marshal([]Step{{Name: name, Detail: detail, At: time.Now().UTC()}})
	if err != nil {
		return err
	}
	res := r.q.db.Detached(context.WithoutCancel(ctx)).Exec(`UPDATE platform.job_progress p
		SET steps = p.steps || CAST(? AS jsonb)
		FROM river.river_job j
		WHERE p.job_id = ? AND j.id = p.job_id AND j.state = 'running' AND j.attempt = ?
			AND j.metadata->>'cancel_attempted_at' IS NULL`, string(step), r.jobID, r.Attempt)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrCancelled
	}
	return ctx.Err()
}

// Done records the job's result in the transaction on ctx, beside the work
// that produced it: the two commit together, so a run taken up again after
// its worker died between that commit and River's own record of the job
// finds it done and runs nothing twice. The handler then returns the same
// result. Without a transaction on ctx it refuses (db.ErrNoTx); once the
// job was cancelled it answers ErrCancelled, so the work rolls back.
func (r *Run[A]) Done(ctx context.Context, result any) error {
	if !db.InTx(ctx) {
		return db.ErrNoTx
	}
	recorded, err := r.q.record(ctx, r.jobID, result)
	if err == nil && !recorded {
		return ErrCancelled
	}
	return err
}

// record stores a job's result (clearing a failure an earlier run left)
// unless the job was cancelled meanwhile: then it reports false.
func (q *Queue) record(ctx context.Context, jobID int64, result any) (bool, error) {
	data, err := json.Marshal(result)
	if err != nil {
		return false, fmt.Errorf("jobs: result cannot be stored: %w", err)
	}
	res := q.db.Conn(ctx).Exec(`UPDATE platform.job_progress p SET result = ?, error = NULL
		FROM river.river_job j
		WHERE p.job_id = ? AND j.id = p.job_id AND j.metadata->>'cancel_attempted_at' IS NULL`, data, jobID)
	return res.RowsAffected == 1, res.Error
}
