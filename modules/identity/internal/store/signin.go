package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// SSOLogin is a sign-in in flight (identity.sso_logins). Challenge is the
// S256 challenge of the client's own verifier, when it sent one.
type SSOLogin struct {
	StateHash   []byte `gorm:"primaryKey"`
	BrowserHash []byte
	Challenge   *string
	Nonce       string
	Verifier    string
	ExpiresAt   time.Time
}

// TableName places the row in the module's schema.
func (SSOLogin) TableName() string { return "identity.sso_logins" }

// SSOCode is a one-time code (identity.sso_codes), bound to the client of
// its sign-in: the browser secret's hash and the client's challenge.
type SSOCode struct {
	CodeHash    []byte `gorm:"primaryKey"`
	UserID      int64
	BrowserHash []byte
	Challenge   *string
	ExpiresAt   time.Time
}

// TableName places the row in the module's schema.
func (SSOCode) TableName() string { return "identity.sso_codes" }

// CreateLogin stores a sign-in in flight and forgets abandoned ones.
func (s *Store) CreateLogin(ctx context.Context, l *SSOLogin) error {
	conn := s.db.Conn(ctx)
	if err := conn.Where("expires_at < now()").Delete(&SSOLogin{}).Error; err != nil {
		return err
	}
	return conn.Create(l).Error
}

// TakeLogin deletes and returns the sign-in with this state hash: a state
// is good for one callback. db.IsNotFound when there is none.
func (s *Store) TakeLogin(ctx context.Context, stateHash []byte) (*SSOLogin, error) {
	return take[SSOLogin](ctx, s, "state_hash", stateHash)
}

// CreateCode stores a one-time code and forgets expired ones.
func (s *Store) CreateCode(ctx context.Context, c *SSOCode) error {
	conn := s.db.Conn(ctx)
	if err := conn.Where("expires_at < now()").Delete(&SSOCode{}).Error; err != nil {
		return err
	}
	return conn.Create(c).Error
}

// TakeCode deletes and returns the code with this hash: consumed on read.
// db.IsNotFound when there is none.
func (s *Store) TakeCode(ctx context.Context, codeHash []byte) (*SSOCode, error) {
	return take[SSOCode](ctx, s, "code_hash", codeHash)
}

// take deletes the row of T whose primary key column holds key and returns
// it, in one statement: two callers racing for the row cannot both get it.
func take[T any](ctx context.Context, s *Store, column string, key []byte) (*T, error) {
	var rows []T
	err := s.db.Conn(ctx).Clauses(clause.Returning{}).Where(column+" = ?", key).Delete(&rows).Error
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errNotFound
	}
	return &rows[0], nil
}
