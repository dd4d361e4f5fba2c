package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Draft statuses.
const (
	DraftPending  = "pending"
	DraftRejected = "rejected"
	DraftAccepted = "accepted"
)

// Draft is a row of drafts.drafts.
type Draft struct {
	ID            int64 `gorm:"primaryKey"`
	BatchID       int64
	Position      int
	QuestionType  string
	QuestionText  string
	Options       StringList `gorm:"type:jsonb"`
	CorrectAnswer string
	Explanation   string
	// Storage keys of the draft's pictures (imported files bring them).
	ImagePath            string
	ExplanationImagePath string
	SourcePage           *int
	CategoryID           *int64
	Status               string
	QuestionID           *int64
	ReviewedBy           *int64
	ReviewedAt           *time.Time
	CreatedAt            time.Time
	UpdatedAt            time.Time
}

// TableName places the row in the module's schema.
func (Draft) TableName() string { return "drafts.drafts" }

// Draft loads one draft.
func (s *Store) Draft(ctx context.Context, id int64) (*Draft, error) {
	var d Draft
	if err := s.db.Conn(ctx).Take(&d, id).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// DraftBatchIDs maps each existing draft id to its batch (unlocked: the
// caller locks the batches, then the drafts).
func (s *Store) DraftBatchIDs(ctx context.Context, ids []int64) (map[int64]int64, error) {
	var rows []struct{ ID, BatchID int64 }
	if err := s.db.Conn(ctx).Model(&Draft{}).Select("id, batch_id").Where("id IN ?", ids).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.ID] = r.BatchID
	}
	return out, nil
}

// LockDrafts loads and locks drafts in id order.
func (s *Store) LockDrafts(ctx context.Context, ids []int64) ([]Draft, error) {
	var out []Draft
	err := s.db.Locked(ctx).Where("id IN ?", ids).Order("id").Find(&out).Error
	return out, err
}

// Drafts lists a batch's drafts in extraction order; status "" lists all.
func (s *Store) Drafts(ctx context.Context, batchID int64, status string, limit, offset int) ([]Draft, error) {
	q := s.db.Conn(ctx).Where("batch_id = ?", batchID)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var out []Draft
	return out, q.Order("position, id").Limit(limit).Offset(offset).Find(&out).Error
}

// SaveDraftContent writes the editable fields of a draft.
func (s *Store) SaveDraftContent(ctx context.Context, d *Draft) error {
	return s.db.Conn(ctx).Model(d).Select("QuestionType", "QuestionText", "Options", "CorrectAnswer",
		"Explanation", "CategoryID", "UpdatedAt").Updates(d).Error
}

// MarkAccepted records the question each draft became.
func (s *Store) MarkAccepted(ctx context.Context, draftIDs, questionIDs []int64, by int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE drafts.drafts d
		SET status = 'accepted', question_id = u.qid, reviewed_by = ?, reviewed_at = now(), updated_at = now()
		FROM unnest(?::bigint[], ?::bigint[]) AS u(id, qid)
		WHERE d.id = u.id`, by, db.IDArray(draftIDs), db.IDArray(questionIDs)).Error
}

// SetStatus moves drafts between pending and rejected.
func (s *Store) SetStatus(ctx context.Context, ids []int64, status string, by int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE drafts.drafts
		SET status = ?, reviewed_by = ?, reviewed_at = now(), updated_at = now()
		WHERE id IN ?`, status, by, ids).Error
}

// DeleteDraft removes one draft.
func (s *Store) DeleteDraft(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Delete(&Draft{}, id).Error
}
