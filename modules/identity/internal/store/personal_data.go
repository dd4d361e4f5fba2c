package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// AccountExport is the account as its owner downloads it.
type AccountExport struct {
	ID                int64           `json:"id"`
	Email             string          `json:"email"`
	Name              string          `json:"name"`
	Role              string          `json:"role"`
	Unthrottled       bool            `json:"unthrottled"`
	RemindersDisabled bool            `json:"reminders_disabled"`
	Settings          json.RawMessage `json:"settings"`
	CreatedAt         time.Time       `json:"created_at"`
	UpdatedAt         time.Time       `json:"updated_at"`
}

// SessionExport is a signed-in device (no token or id: those are
// credentials, not data about the person).
type SessionExport struct {
	Device     string    `json:"device"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// GrantExport is an editorial grant held.
type GrantExport struct {
	Kind      string    `json:"kind"`
	TargetID  int64     `json:"target_id"`
	Scope     string    `json:"scope"`
	GrantedBy int64     `json:"granted_by"`
	CreatedAt time.Time `json:"created_at"`
}

// ExportPersonalData writes the account, its sessions and its grants.
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	var acc AccountExport
	res := s.db.Conn(ctx).Raw(`SELECT id, email, name, role, unthrottled, reminders_disabled, settings,
		created_at, updated_at FROM identity.users WHERE id = ?`, userID).Scan(&acc)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errNotFound
	}
	if err := x.Object("account", acc); err != nil {
		return err
	}
	err := module.Rows[SessionExport](x, "sessions", s.db.Conn(ctx).Raw(`SELECT device, created_at, last_used_at,
		expires_at FROM identity.sessions WHERE user_id = ? ORDER BY created_at, id`, userID))
	if err != nil {
		return err
	}
	return module.Rows[GrantExport](x, "grants", s.db.Conn(ctx).Raw(`SELECT kind, target_id, scope, granted_by,
		created_at FROM identity.grants WHERE user_id = ? ORDER BY id`, userID))
}
