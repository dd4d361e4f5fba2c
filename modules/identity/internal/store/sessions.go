package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// errNotFound is what db.IsNotFound recognises.
var errNotFound = gorm.ErrRecordNotFound

// Session is a session family (identity.sessions).
type Session struct {
	ID         string `gorm:"primaryKey"`
	UserID     int64
	Device     string
	CreatedAt  time.Time
	LastUsedAt time.Time
	ExpiresAt  time.Time
}

// TableName places the row in the module's schema.
func (Session) TableName() string { return "identity.sessions" }

// RefreshToken is one refresh token of a family (identity.refresh_tokens).
type RefreshToken struct {
	TokenHash []byte `gorm:"primaryKey"`
	SessionID string
	CreatedAt time.Time
	ExpiresAt time.Time
	SpentAt   *time.Time
}

// TableName places the row in the module's schema.
func (RefreshToken) TableName() string { return "identity.refresh_tokens" }

// CreateSession starts a family with its first token, and forgets the
// user's families that ran out.
func (s *Store) CreateSession(ctx context.Context, sess *Session, first *RefreshToken) error {
	conn := s.db.Conn(ctx)
	if err := conn.Where("user_id = ? AND expires_at < now()", sess.UserID).Delete(&Session{}).Error; err != nil {
		return err
	}
	if err := conn.Create(sess).Error; err != nil {
		return err
	}
	return conn.Create(first).Error
}

// LockRefreshToken finds a token by hash and locks it and its family, so
// two refreshes with the same token are decided one after the other.
func (s *Store) LockRefreshToken(ctx context.Context, hash []byte) (*RefreshToken, *Session, error) {
	conn := s.db.Conn(ctx)
	var rt RefreshToken
	if err := conn.Clauses(clause.Locking{Strength: "UPDATE"}).Where("token_hash = ?", hash).Take(&rt).Error; err != nil {
		return nil, nil, err
	}
	var sess Session
	if err := conn.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", rt.SessionID).Take(&sess).Error; err != nil {
		return nil, nil, err
	}
	return &rt, &sess, nil
}

// RotateRefreshToken spends old, adds next to the same family, moves the
// family's last use and expiry, and drops the family's tokens that ran out.
func (s *Store) RotateRefreshToken(ctx context.Context, old []byte, next *RefreshToken, now time.Time) error {
	conn := s.db.Conn(ctx)
	if err := conn.Model(&RefreshToken{}).Where("token_hash = ?", old).Update("spent_at", now).Error; err != nil {
		return err
	}
	if err := conn.Create(next).Error; err != nil {
		return err
	}
	if err := conn.Where("session_id = ? AND expires_at < ?", next.SessionID, now).Delete(&RefreshToken{}).Error; err != nil {
		return err
	}
	return conn.Model(&Session{}).Where("id = ?", next.SessionID).
		Updates(map[string]any{"last_used_at": now, "expires_at": next.ExpiresAt}).Error
}

// DeleteSessionOfToken ends the user's family a token (spent or not)
// belongs to; a token of nobody's or of someone else's family ends nothing.
func (s *Store) DeleteSessionOfToken(ctx context.Context, userID int64, hash []byte) error {
	return s.db.Conn(ctx).
		Where("user_id = ? AND id = (SELECT session_id FROM identity.refresh_tokens WHERE token_hash = ?)", userID, hash).
		Delete(&Session{}).Error
}

// DeleteSession ends one family of the user; it reports whether there was one.
func (s *Store) DeleteSession(ctx context.Context, userID int64, id string) (bool, error) {
	res := s.db.Conn(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&Session{})
	return res.RowsAffected > 0, res.Error
}

// DeleteSessionsOf ends every family of the user.
func (s *Store) DeleteSessionsOf(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Where("user_id = ?", userID).Delete(&Session{}).Error
}

// ListSessions pages through the user's live families, most recently used
// first (sessions_user_idx).
func (s *Store) ListSessions(ctx context.Context, userID int64, limit, offset int) ([]Session, error) {
	var out []Session
	err := s.db.Conn(ctx).Where("user_id = ? AND expires_at > now()", userID).
		Order("last_used_at DESC, id").Limit(limit).Offset(offset).Find(&out).Error
	return out, err
}

// CountSessions counts the user's live families.
func (s *Store) CountSessions(ctx context.Context, userID int64) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Session{}).Where("user_id = ? AND expires_at > now()", userID).Count(&n).Error
	return n, err
}
