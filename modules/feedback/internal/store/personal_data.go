package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// ReportExport is a report the person sent, with what became of it.
type ReportExport struct {
	Kind           string     `json:"kind"`
	TargetID       int64      `json:"target_id"`
	Title          string     `json:"title"`
	Type           string     `json:"type"`
	Text           string     `json:"text"`
	Status         string     `json:"status"`
	ResolutionNote string     `json:"resolution_note"`
	CreatedAt      time.Time  `json:"created_at"`
	ResolvedAt     *time.Time `json:"resolved_at"`
}

// ExportPersonalData writes the reports the person sent.
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return module.Rows[ReportExport](x, "reports", s.db.Conn(ctx).Raw(`
		SELECT kind, target_id, title, type, text, status, resolution_note, created_at, resolved_at
		  FROM feedback.reports WHERE reporter_id = ? ORDER BY created_at, id`, userID))
}

// ForgetUser removes the reports the person sent (their words); reports
// they resolved as a moderator stay, as the queue's history.
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM feedback.reports WHERE reporter_id = ?`, userID).Error
}
