package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// notifyChannel wakes idle workers when a job is committed.
const notifyChannel = "rounds_jobs"

// Queue creates, reads and cancels jobs. Any process may use it; only worker
// processes run a Runner.
type Queue struct {
	db  *db.DB
	cfg config.Jobs
}

// NewQueue makes the queue.
func NewQueue(d *db.DB, cfg config.Jobs) *Queue { return &Queue{db: d, cfg: cfg} }

// row is the gorm shape of platform.jobs.
type row struct {
	ID          uuid.UUID
	Kind        string
	OwnerID     *int64
	Status      string
	Payload     []byte
	Trace       []byte
	Steps       []byte
	Result      []byte
	Error       *string
	Attempts    int
	MaxAttempts int
	Worker      *string
	LeaseUntil  *time.Time
	CreatedAt   time.Time
	StartedAt   *time.Time
	FinishedAt  *time.Time
	UpdatedAt   time.Time
}

func (r *row) toRecord() (*Record, error) {
	rec := &Record{ID: r.ID, Kind: r.Kind, OwnerID: r.OwnerID, Status: Status(r.Status),
		Payload: r.Payload, Result: r.Result, Attempts: r.Attempts,
		CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, UpdatedAt: r.UpdatedAt}
	if r.Error != nil {
		rec.Error = *r.Error
	}
	if err := json.Unmarshal(r.Steps, &rec.Steps); err != nil {
		return nil, fmt.Errorf("jobs: steps of %s: %w", r.ID, err)
	}
	return rec, nil
}

// Enqueue creates a pending job inside the transaction on ctx (or its own).
// It answers ErrQueueFull, creating nothing, when jobs.max_pending jobs are
// already waiting. With tracing on, the caller's trace context is stored so
// the run continues the caller's trace.
func (q *Queue) Enqueue(ctx context.Context, kind string, ownerID *int64, payload any) (uuid.UUID, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return uuid.Nil, fmt.Errorf("jobs: encode payload: %w", err)
	}
	var traceCtx any // NULL: tracing off or nothing to continue
	if c := telemetry.Carrier(ctx); len(c) > 0 {
		if traceCtx, err = json.Marshal(c); err != nil {
			return uuid.Nil, fmt.Errorf("jobs: encode trace context: %w", err)
		}
	}
	id := uuid.New()
	err = q.db.Tx(ctx, func(ctx context.Context) error {
		conn := q.db.Conn(ctx)
		var pending int
		if err := conn.Raw(`SELECT count(*) FROM platform.jobs WHERE status = 'pending'`).Scan(&pending).Error; err != nil {
			return err
		}
		if pending >= q.cfg.MaxPending {
			return ErrQueueFull
		}
		if err := conn.Exec(`INSERT INTO platform.jobs (id, kind, owner_id, status, payload, trace, max_attempts)
			VALUES (?, ?, ?, 'pending', ?, ?, ?)`, id, kind, ownerID, data, traceCtx, q.cfg.MaxAttempts).Error; err != nil {
			return err
		}
		return conn.Exec(`SELECT pg_notify(?, ?)`, notifyChannel, kind).Error
	})
	if err != nil {
		return uuid.Nil, err
	}
	return id, nil
}

const selectCols = `id, kind, owner_id, status, payload, steps, result, error, attempts, max_attempts,
	worker, lease_until, created_at, started_at, finished_at, updated_at`

// Get reads one job.
func (q *Queue) Get(ctx context.Context, id uuid.UUID) (*Record, error) {
	var r row
	res := q.db.Conn(ctx).Raw(`SELECT `+selectCols+` FROM platform.jobs WHERE id = ?`, id).Scan(&r)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, ErrNotFound
	}
	return r.toRecord()
}

// ListByOwner returns the owner's most recent jobs of the given kinds.
func (q *Queue) ListByOwner(ctx context.Context, ownerID int64, kinds []string, limit int) ([]*Record, error) {
	var rows []row
	err := q.db.Conn(ctx).Raw(`SELECT `+selectCols+` FROM platform.jobs
		WHERE owner_id = ? AND kind IN ? ORDER BY created_at DESC LIMIT ?`, ownerID, kinds, limit).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]*Record, 0, len(rows))
	for i := range rows {
		rec, err := rows[i].toRecord()
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// Cancel marks a pending or running job cancelled. A running job's worker
// notices at its next step or lease renewal and stops. ErrNotCancellable
// when the job is already over.
func (q *Queue) Cancel(ctx context.Context, id uuid.UUID) error {
	res := q.db.Conn(ctx).Exec(`UPDATE platform.jobs
		SET status = 'cancelled', finished_at = now(), updated_at = now(), lease_until = NULL
		WHERE id = ? AND status IN ('pending', 'running')`, id)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		if _, err := q.Get(ctx, id); err != nil {
			return err
		}
		return ErrNotCancellable
	}
	return nil
}

// Prune deletes finished jobs older than retention.
func (q *Queue) Prune(ctx context.Context, retention time.Duration) (int64, error) {
	res := q.db.Conn(ctx).Exec(`DELETE FROM platform.jobs
		WHERE status IN ('completed', 'failed', 'cancelled') AND finished_at < ?`, time.Now().Add(-retention))
	return res.RowsAffected, res.Error
}
