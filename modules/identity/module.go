// Package identity owns users, sign-in through OpenID Connect, access and
// refresh tokens, sessions, roles and editorial grants. Other modules learn
// about people only through Facade.
package identity

import (
	"context"
	"log/slog"

	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Deps is what the module is built from.
type Deps struct {
	DB  *db.DB
	Log *slog.Logger
}

// Module is the identity bounded context.
type Module struct {
	store *store.Store
	log   *slog.Logger
}

// New builds the module.
func New(d Deps) *Module {
	return &Module{store: store.New(d.DB), log: d.Log}
}

// Account implements auth.Directory: the verifier reads the current role
// from the user row.
func (m *Module) Account(ctx context.Context, userID int64) (auth.Account, error) {
	u, err := m.store.UserByID(ctx, userID)
	if db.IsNotFound(err) {
		return auth.Account{}, auth.ErrUnknownUser
	}
	if err != nil {
		return auth.Account{}, err
	}
	return auth.Account{Role: auth.Role(u.Role), Unthrottled: u.Unthrottled}, nil
}
