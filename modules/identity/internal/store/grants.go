package store

import (
	"context"
	"time"
)

// Grant is an editorial grant (identity.grants).
type Grant struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	Kind      string
	TargetID  int64
	Scope     string
	GrantedBy int64
	CreatedAt time.Time
}

// TableName places the row in the module's schema.
func (Grant) TableName() string { return "identity.grants" }

// GrantsOf lists a user's grants, oldest first (grants_unique leads with user_id).
func (s *Store) GrantsOf(ctx context.Context, userID int64) ([]Grant, error) {
	var out []Grant
	err := s.db.Conn(ctx).Where("user_id = ?", userID).Order("id").Find(&out).Error
	return out, err
}

// CreateGrant inserts a grant; db.IsUniqueViolation for a duplicate.
func (s *Store) CreateGrant(ctx context.Context, g *Grant) error {
	return s.db.Conn(ctx).Create(g).Error
}

// DeleteGrant removes one of the user's grants; it reports whether there was one.
func (s *Store) DeleteGrant(ctx context.Context, userID, grantID int64) (bool, error) {
	res := s.db.Conn(ctx).Where("id = ? AND user_id = ?", grantID, userID).Delete(&Grant{})
	return res.RowsAffected > 0, res.Error
}
