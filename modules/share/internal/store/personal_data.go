package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// LinkExport is a share link the person made (never its token: only its
// hash is kept).
type LinkExport struct {
	ID          int64      `json:"id"`
	Kind        string     `json:"kind"`
	TargetID    int64      `json:"target_id"`
	Title       string     `json:"title"`
	WithAnswers bool       `json:"with_answers"`
	Views       int64      `json:"views"`
	CreatedAt   time.Time  `json:"created_at"`
	ExpiresAt   time.Time  `json:"expires_at"`
	RevokedAt   *time.Time `json:"revoked_at"`
}

// ExportPersonalData writes the links the person made.
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return module.Rows[LinkExport](x, "links", s.db.Conn(ctx).Raw(`
		SELECT id, kind, target_id, title, with_answers, views, created_at, expires_at, revoked_at
		  FROM share.links WHERE created_by = ? ORDER BY id`, userID))
}

// ForgetUser removes the links the person made: they stop opening.
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM share.links WHERE created_by = ?`, userID).Error
}
