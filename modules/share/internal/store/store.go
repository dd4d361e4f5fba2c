// Package store is the share module's persistence: the links.
package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Link is a row of share.links.
type Link struct {
	ID           int64 `gorm:"primaryKey"`
	TokenHash    string
	Kind         string
	TargetID     int64
	Title        string
	WithAnswers  bool
	CreatedBy    int64
	ExpiresAt    time.Time
	RevokedAt    *time.Time
	RevokedBy    *int64
	Views        int64
	LastViewedAt *time.Time
	CreatedAt    time.Time
}

// TableName places the row in the module's schema.
func (Link) TableName() string { return "share.links" }

// Store reads and writes the share schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Insert stores a link; the database sets id and created_at.
func (s *Store) Insert(ctx context.Context, l *Link) error {
	return s.db.Conn(ctx).Raw(`INSERT INTO share.links (token_hash, kind, target_id, title, with_answers, created_by, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
		l.TokenHash, l.Kind, l.TargetID, l.Title, l.WithAnswers, l.CreatedBy, l.ExpiresAt).Scan(l).Error
}

// ByToken finds the link a token opens (db.ErrNotFound when none).
func (s *Store) ByToken(ctx context.Context, hash string) (*Link, error) {
	var l Link
	if err := s.db.Conn(ctx).Where("token_hash = ?", hash).Take(&l).Error; err != nil {
		return nil, err
	}
	return &l, nil
}

// Locked loads a link under a row lock (db.ErrNotFound when missing).
func (s *Store) Locked(ctx context.Context, id int64) (*Link, error) {
	var l Link
	if err := s.db.Locked(ctx).Where("id = ?", id).Take(&l).Error; err != nil {
		return nil, err
	}
	return &l, nil
}

// Revoke ends a link now.
func (s *Store) Revoke(ctx context.Context, id, by int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE share.links SET revoked_at = now(), revoked_by = ? WHERE id = ?`, by, id).Error
}

// Viewed counts one open (a single statement: concurrent opens add up).
func (s *Store) Viewed(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE share.links SET views = views + 1, last_viewed_at = now() WHERE id = ?`, id).Error
}

// ByCreator lists one person's links, newest first, with the total.
func (s *Store) ByCreator(ctx context.Context, by int64, limit, offset int) ([]Link, int64, error) {
	q := s.db.Conn(ctx).Model(&Link{}).Where("created_by = ?", by)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Link
	err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}
