// Package store is identity's persistence: gorm rows and queries.
package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// User is a row of identity.users.
type User struct {
	ID                int64 `gorm:"primaryKey"`
	Email             string
	Name              string
	Role              string
	Unthrottled       bool
	RemindersDisabled bool
	Settings          []byte `gorm:"type:jsonb;default:'{}'"`
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// TableName places the row in the module's schema.
func (User) TableName() string { return "identity.users" }

// Store reads and writes identity rows.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// UserByID loads one user; db.IsNotFound on a miss.
func (s *Store) UserByID(ctx context.Context, id int64) (*User, error) {
	var u User
	if err := s.db.Conn(ctx).Take(&u, id).Error; err != nil {
		return nil, err
	}
	return &u, nil
}

// CreateUser inserts a user.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	return s.db.Conn(ctx).Create(u).Error
}
