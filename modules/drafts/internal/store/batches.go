package store

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Batch statuses.
const (
	BatchOpen   = "open"
	BatchClosed = "closed"
)

// Batch is a row of drafts.batches.
type Batch struct {
	ID          int64 `gorm:"primaryKey"`
	JobID       *uuid.UUID
	DocumentID  *int64
	SectionID   *int64
	Source      string
	StartPage   int
	EndPage     int
	Extractor   string
	ReadingMode string
	CategoryID  *int64
	Status      string
	CreatedBy   int64
	CreatedAt   time.Time
	ClosedAt    *time.Time
}

// TableName places the row in the module's schema.
func (Batch) TableName() string { return "drafts.batches" }

// BatchSummary is a batch with its drafts counted by status.
type BatchSummary struct {
	Batch
	Pending  int
	Rejected int
	Accepted int
}

// CreateBatch inserts a batch and its drafts (positions in order).
func (s *Store) CreateBatch(ctx context.Context, b *Batch, drafts []Draft) error {
	conn := s.db.Conn(ctx)
	b.Status = BatchOpen
	if len(drafts) == 0 {
		b.Status = BatchClosed
	}
	if err := conn.Omit("CreatedAt", "ClosedAt").Create(b).Error; err != nil {
		return err
	}
	for i := range drafts {
		drafts[i].BatchID = b.ID
		drafts[i].Position = i + 1
		drafts[i].Status = DraftPending
	}
	if len(drafts) == 0 {
		return nil
	}
	return conn.Omit("CreatedAt", "UpdatedAt").CreateInBatches(drafts, 200).Error
}

// BatchByJob finds the batch an extraction job already made.
func (s *Store) BatchByJob(ctx context.Context, jobID uuid.UUID) (*Batch, error) {
	var b Batch
	if err := s.db.Conn(ctx).Where("job_id = ?", jobID).Take(&b).Error; err != nil {
		return nil, err
	}
	return &b, nil
}

// LockBatches locks the batches in id order (so two requests never wait on
// each other crosswise) and returns them by id.
func (s *Store) LockBatches(ctx context.Context, ids []int64) (map[int64]*Batch, error) {
	var rows []Batch
	if err := s.db.Locked(ctx).Where("id IN ?", ids).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[int64]*Batch, len(rows))
	for i := range rows {
		out[rows[i].ID] = &rows[i]
	}
	return out, nil
}

const summaryCounts = `
	LEFT JOIN LATERAL (
		SELECT count(*) FILTER (WHERE d.status = 'pending')  AS pending,
		       count(*) FILTER (WHERE d.status = 'rejected') AS rejected,
		       count(*) FILTER (WHERE d.status = 'accepted') AS accepted
		FROM drafts.drafts d WHERE d.batch_id = b.id) c ON true`

// Batches lists batches newest first with their counts; status "" lists
// every batch.
func (s *Store) Batches(ctx context.Context, status string, limit, offset int) ([]BatchSummary, error) {
	var out []BatchSummary
	err := s.db.Conn(ctx).Raw(`
		WITH page AS (
			SELECT * FROM drafts.batches
			WHERE (? = '' OR status = ?)
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?)
		SELECT b.*, c.pending, c.rejected, c.accepted FROM page b`+summaryCounts+`
		ORDER BY b.created_at DESC, b.id DESC`, status, status, limit, offset).Scan(&out).Error
	return out, err
}

// BatchSummaries loads the given batches with their counts.
func (s *Store) BatchSummaries(ctx context.Context, ids []int64) ([]BatchSummary, error) {
	var out []BatchSummary
	err := s.db.Conn(ctx).Raw(`SELECT b.*, c.pending, c.rejected, c.accepted
		FROM drafts.batches b`+summaryCounts+` WHERE b.id IN ? ORDER BY b.id`, ids).Scan(&out).Error
	return out, err
}

// SetBatchCategory files the batch into a category.
func (s *Store) SetBatchCategory(ctx context.Context, id, categoryID int64) error {
	return s.db.Conn(ctx).Model(&Batch{}).Where("id = ?", id).Update("category_id", categoryID).Error
}

// RefreshBatchStatus closes each batch with no pending draft left and
// reopens one that has a pending draft again.
func (s *Store) RefreshBatchStatus(ctx context.Context, ids []int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE drafts.batches b
		SET status = CASE WHEN x.has_pending THEN 'open' ELSE 'closed' END,
		    closed_at = CASE WHEN x.has_pending THEN NULL ELSE coalesce(b.closed_at, now()) END
		FROM (SELECT id, EXISTS (SELECT 1 FROM drafts.drafts d WHERE d.batch_id = bb.id AND d.status = 'pending') AS has_pending
		      FROM drafts.batches bb WHERE bb.id IN ?) x
		WHERE b.id = x.id`, ids).Error
}
