package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivertype"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

// Queue creates, reads and cancels jobs, in any process. Its River client
// speaks database/sql on the gorm pool (riverdatabasesql): it inserts inside
// the caller's transaction and adds no connection of its own. Worker
// processes also run a Runner.
type Queue struct {
	db      *db.DB
	cfg     config.Jobs
	log     *slog.Logger
	client  *river.Client[*sql.Tx]
	workers *river.Workers
	kinds   map[string]river.InsertOpts // registered kinds and how they are inserted
}

// NewQueue makes the queue; kinds are registered on its Runner.
func NewQueue(d *db.DB, cfg config.Jobs, log *slog.Logger) (*Queue, error) {
	workers := river.NewWorkers()
	client, err := river.NewClient(riverdatabasesql.New(d.StdPool()), &river.Config{
		Schema:     db.RiverSchema,
		Workers:    workers, // an insert of a kind no worker knows is refused
		Logger:     log,
		Middleware: []rivertype.Middleware{&tracing{}},
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	return &Queue{db: d, cfg: cfg, log: log, client: client, workers: workers, kinds: map[string]river.InsertOpts{}}, nil
}

// Enqueue creates a job inside the transaction on ctx (or its own): River's
// row and the job's progress row commit or roll back with the caller's
// write. It answers ErrQueueFull, creating nothing, when jobs.max_pending
// jobs are already waiting, and for a Unique kind whose work is already
// queued, that job's id with ErrDuplicate. With tracing on, the caller's
// trace context goes with the job and its run continues that trace.
func (q *Queue) Enqueue(ctx context.Context, ownerID *int64, args Args) (uuid.UUID, error) {
	opts, ok := q.kinds[args.Kind()]
	if !ok {
		return uuid.Nil, fmt.Errorf("jobs: no kind %q is registered", args.Kind())
	}
	var id uuid.UUID
	duplicate := false
	err := q.db.Tx(ctx, func(ctx context.Context) error {
		conn := q.db.Conn(ctx)
		var waiting int
		if err := conn.Raw(`SELECT count(*) FROM river.river_job WHERE state IN ('available', 'scheduled', 'retryable')`).
			Scan(&waiting).Error; err != nil {
			return err
		}
		if waiting >= q.cfg.MaxPending {
			return ErrQueueFull
		}
		tx, err := db.SQLTx(ctx)
		if err != nil {
			return err
		}
		res, err := q.client.InsertTx(ctx, tx, args, &opts)
		if err != nil {
			return fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
		}
		if res.UniqueSkippedAsDuplicate {
			duplicate = true
			var twin struct{ PublicID uuid.UUID }
			err := conn.Raw(`SELECT public_id FROM platform.job_progress WHERE job_id = ?`, res.Job.ID).Scan(&twin).Error
			id = twin.PublicID
			return err
		}
		id = uuid.New()
		return conn.Exec(`INSERT INTO platform.job_progress (job_id, public_id, kind, owner_id) VALUES (?, ?, ?, ?)`,
			res.Job.ID, id, args.Kind(), ownerID).Error
	})
	switch {
	case err != nil:
		return uuid.Nil, err
	case duplicate:
		return id, ErrDuplicate
	}
	return id, nil
}

// row is a job as read: its progress row and River's.
type row struct {
	JobID           int64
	PublicID        uuid.UUID
	Kind            string
	OwnerID         *int64
	Steps           []byte
	Result          []byte
	Error           *string
	StartedAt       *time.Time
	State           string
	Args            []byte
	Attempt         int
	CancelRequested bool
	LastError       *string
	Deaths          int
	CreatedAt       time.Time
	FinishedAt      *time.Time
}

// rescued is the error River's rescuer records on a job whose worker died
// mid-run (its JobRescuer); the e2e suites see it change.
const rescued = "Stuck job rescued by JobRescuer"

const selectRows = `SELECT p.job_id, p.public_id, p.kind, p.owner_id, p.steps, p.result, p.error, p.started_at,
		j.state::text AS state, j.args, j.attempt,
		j.metadata->>'cancel_attempted_at' IS NOT NULL AS cancel_requested,
		j.errors[array_upper(j.errors, 1)]->>'error' AS last_error,
		(SELECT count(*) FROM unnest(j.errors) e WHERE e->>'error' = '` + rescued + `') AS deaths,
		j.created_at, coalesce(j.finalized_at, (j.metadata->>'cancel_attempted_at')::timestamptz) AS finished_at
	FROM platform.job_progress p JOIN river.river_job j ON j.id = p.job_id`

func (r *row) status() Status {
	switch r.State {
	case string(rivertype.JobStateCompleted):
		return Completed
	case string(rivertype.JobStateDiscarded):
		return Failed
	case string(rivertype.JobStateCancelled):
		if r.CancelRequested {
			return Cancelled
		}
		return Failed // the job gave up on itself (River's JobCancel)
	case string(rivertype.JobStateRunning), string(rivertype.JobStateRetryable):
		if r.CancelRequested {
			return Cancelled // its worker stops at its next step
		}
		return Running
	}
	if r.Attempt > 0 {
		return Running // taken up again after a failed run or a dead worker
	}
	return Pending
}

func (r *row) toRecord() (*Record, error) {
	rec := &Record{ID: r.PublicID, Kind: r.Kind, OwnerID: r.OwnerID, Status: r.status(), Payload: r.Args,
		Result: r.Result, Attempts: r.Attempt, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt}
	if err := json.Unmarshal(r.Steps, &rec.Steps); err != nil {
		return nil, fmt.Errorf("jobs: steps of %s: %w", r.PublicID, err)
	}
	switch {
	case r.Error != nil:
		rec.Error = *r.Error
	case rec.Status != Failed || r.LastError == nil:
	case *r.LastError == rescued:
		rec.Error = abandoned(r.Deaths)
	default:
		rec.Error = *r.LastError // River's own (arguments it could not decode, say)
	}
	return rec, nil
}

// abandoned is why a job whose workers kept dying was given up on.
func abandoned(deaths int) string {
	return fmt.Sprintf("abandoned: its worker stopped %d times", deaths)
}

func (q *Queue) get(ctx context.Context, id uuid.UUID) (*row, error) {
	var r row
	res := q.db.Conn(ctx).Raw(selectRows+` WHERE p.public_id = ?`, id).Scan(&r)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, ErrNotFound
	}
	return &r, nil
}

// Get reads one job.
func (q *Queue) Get(ctx context.Context, id uuid.UUID) (*Record, error) {
	r, err := q.get(ctx, id)
	if err != nil {
		return nil, err
	}
	return r.toRecord()
}

// ListByOwner returns the owner's most recent jobs of the given kinds.
func (q *Queue) ListByOwner(ctx context.Context, ownerID int64, kinds []string, limit int) ([]*Record, error) {
	var rows []row
	err := q.db.Conn(ctx).Raw(selectRows+` WHERE p.owner_id = ? AND p.kind IN ? ORDER BY p.job_id DESC LIMIT ?`,
		ownerID, kinds, limit).Scan(&rows).Error
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

// Cancel cancels a waiting or running job (River's JobCancel): a waiting
// one at once, a running one as soon as its worker hears of it (its
// context ends and its next step answers ErrCancelled); either reads as
// cancelled from now on. ErrNotCancellable when the job is already over.
func (q *Queue) Cancel(ctx context.Context, id uuid.UUID) error {
	return q.db.Tx(ctx, func(ctx context.Context) error {
		r, err := q.get(ctx, id)
		if err != nil {
			return err
		}
		if r.status().Terminal() {
			return ErrNotCancellable
		}
		tx, err := db.SQLTx(ctx)
		if err != nil {
			return err
		}
		job, err := q.client.JobCancelTx(ctx, tx, r.JobID)
		if err != nil {
			return fmt.Errorf("jobs: cancel %s: %w", id, err)
		}
		var meta struct {
			CancelAttemptedAt *time.Time `json:"cancel_attempted_at"`
		}
		if err := json.Unmarshal(job.Metadata, &meta); err != nil || meta.CancelAttemptedAt == nil {
			return ErrNotCancellable // it finished meanwhile: River changed nothing
		}
		return nil
	})
}
