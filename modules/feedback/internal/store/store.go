// Package store is the feedback module's persistence: the reports.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Report is a row of feedback.reports.
type Report struct {
	ID             int64 `gorm:"primaryKey"`
	Kind           string
	TargetID       int64
	Title          string
	ReporterID     int64
	Type           string
	Text           string
	Status         string
	ResolutionNote string
	ResolvedBy     *int64
	ResolvedAt     *time.Time
	CreatedAt      time.Time
}

// TableName places the row in the module's schema.
func (Report) TableName() string { return "feedback.reports" }

// ErrOpenAlready is a second open report by the same person on the same
// target.
var ErrOpenAlready = errors.New("store: an open report exists")

// Store reads and writes the feedback schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Insert files a report; the database sets id, status and created_at.
func (s *Store) Insert(ctx context.Context, r *Report) error {
	err := s.db.Conn(ctx).Raw(`INSERT INTO feedback.reports (kind, target_id, title, reporter_id, type, text)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING *`, r.Kind, r.TargetID, r.Title, r.ReporterID, r.Type, r.Text).Scan(r).Error
	if db.IsUniqueViolation(err) {
		return ErrOpenAlready
	}
	return err
}

// Locked loads a report under a row lock (db.ErrNotFound when missing).
func (s *Store) Locked(ctx context.Context, id int64) (*Report, error) {
	var r Report
	if err := s.db.Locked(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, err
	}
	return &r, nil
}

// Resolve records a moderator's outcome.
func (s *Store) Resolve(ctx context.Context, r *Report) error {
	return s.db.Conn(ctx).Raw(`UPDATE feedback.reports SET status = ?, resolution_note = ?, resolved_by = ?,
		resolved_at = now() WHERE id = ? RETURNING *`, r.Status, r.ResolutionNote, r.ResolvedBy, r.ID).Scan(r).Error
}

// Filter narrows a listing; zero values do not filter.
type Filter struct {
	Status     string
	Kind       string
	TargetID   int64
	ReporterID int64
}

// List gives the reports a filter selects, newest first, and their total.
func (s *Store) List(ctx context.Context, f Filter, limit, offset int) ([]Report, int64, error) {
	q := s.db.Conn(ctx).Model(&Report{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", f.Kind)
	}
	if f.TargetID != 0 {
		q = q.Where("target_id = ?", f.TargetID)
	}
	if f.ReporterID != 0 {
		q = q.Where("reporter_id = ?", f.ReporterID)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Report
	err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// OpenCounts counts the open reports on each of the targets of a kind
// (targets without any are absent).
func (s *Store) OpenCounts(ctx context.Context, kind string, ids []int64) (map[int64]int64, error) {
	var rows []struct{ TargetID, Open int64 }
	err := s.db.Conn(ctx).Raw(`SELECT target_id, count(*) AS open FROM feedback.reports
		WHERE kind = ? AND status = 'open' AND target_id = ANY(CAST(? AS bigint[])) GROUP BY target_id`,
		kind, db.IDArray(ids)).Scan(&rows).Error
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.TargetID] = r.Open
	}
	return out, err
}
