// Package store is identity's persistence: gorm rows and queries. Every
// method runs on the transaction carried by ctx when there is one.
package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

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

// Every read below but UserWithSettings leaves the settings object out: it
// may be 64 KiB, and the verifier and the facade read users on hot paths.

// UserByID loads one user; db.IsNotFound on a miss.
func (s *Store) UserByID(ctx context.Context, id int64) (*User, error) {
	var u User
	if err := s.db.Conn(ctx).Omit("Settings").Take(&u, id).Error; err != nil {
		return nil, err
	}
	return &u, nil
}

// UserWithSettings loads one user with the settings object.
func (s *Store) UserWithSettings(ctx context.Context, id int64) (*User, error) {
	var u User
	if err := s.db.Conn(ctx).Take(&u, id).Error; err != nil {
		return nil, err
	}
	return &u, nil
}

// LockUser loads one user and locks the row until the transaction ends.
func (s *Store) LockUser(ctx context.Context, id int64) (*User, error) {
	var u User
	err := s.db.Conn(ctx).Clauses(clause.Locking{Strength: "UPDATE"}).Omit("Settings").Take(&u, id).Error
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// LockUserByEmail finds a user by address, case-insensitively (the
// users_email_key index), and locks the row.
func (s *Store) LockUserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	err := s.db.Conn(ctx).Clauses(clause.Locking{Strength: "UPDATE"}).Omit("Settings").
		Where("lower(email) = lower(?)", email).Take(&u).Error
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// UsersByIDs loads the users among ids (missing ids are left out).
func (s *Store) UsersByIDs(ctx context.Context, ids []int64) ([]User, error) {
	var out []User
	if len(ids) == 0 {
		return out, nil
	}
	err := s.db.Conn(ctx).Omit("Settings").Where("id IN ?", ids).Find(&out).Error
	return out, err
}

// CreateUser inserts a user; db.IsUniqueViolation when the address is taken.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	return s.db.Conn(ctx).Omit("Settings").Create(u).Error
}

// InsertUserIfAbsent inserts a user unless the address is taken (a sign-in
// racing another for the same new address); it reports whether it did.
func (s *Store) InsertUserIfAbsent(ctx context.Context, u *User) (bool, error) {
	res := s.db.Conn(ctx).Raw(`
		INSERT INTO identity.users (email, name, role) VALUES (?, ?, ?)
		ON CONFLICT ((lower(email))) DO NOTHING
		RETURNING id, created_at, updated_at`, u.Email, u.Name, u.Role).
		Scan(u)
	return res.RowsAffected == 1, res.Error
}

// ListUsers pages through users in id order.
func (s *Store) ListUsers(ctx context.Context, limit, offset int) ([]User, error) {
	var out []User
	err := s.db.Conn(ctx).Omit("Settings").Order("id").Limit(limit).Offset(offset).Find(&out).Error
	return out, err
}

// CountUsers counts every user.
func (s *Store) CountUsers(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&User{}).Count(&n).Error
	return n, err
}

// UpdateUser writes the given columns of one user and bumps updated_at.
func (s *Store) UpdateUser(ctx context.Context, id int64, cols map[string]any) error {
	cols["updated_at"] = time.Now().UTC()
	return s.db.Conn(ctx).Model(&User{}).Where("id = ?", id).Updates(cols).Error
}

// DeleteUser removes a user; sessions, codes and grants go with the row.
func (s *Store) DeleteUser(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Delete(&User{}, id).Error
}

// adminSetLock serialises every change that can take an administrator away
// (demotion, deletion), so "is this the last one" is answered under it.
const adminSetLock = 7_470_300

// LockAdminSet takes the admin-set lock for the rest of the transaction.
func (s *Store) LockAdminSet(ctx context.Context) error {
	return s.db.Conn(ctx).Exec("SELECT pg_advisory_xact_lock(?)", adminSetLock).Error
}

// CountAdmins counts administrators (users_admins_idx).
func (s *Store) CountAdmins(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&User{}).Where("role = 'admin'").Count(&n).Error
	return n, err
}

// Admins lists administrators in id order.
func (s *Store) Admins(ctx context.Context) ([]User, error) {
	var out []User
	err := s.db.Conn(ctx).Omit("Settings").Where("role = 'admin'").Order("id").Find(&out).Error
	return out, err
}
