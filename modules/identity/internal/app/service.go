// Package app is identity's service logic: sign-in, tokens and sessions,
// accounts, people administration, roles and grants. Each write runs in one
// transaction; failures the caller can act on are *apperr.Error.
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"log/slog"
	"time"

	"github.com/roundsedu/rounds/modules/identity/internal/sso"
	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// Config is the policy the service runs with.
type Config struct {
	Roles          RolePolicy
	ClientURL      string        // where the callback sends the browser with ?code=
	CodeTTL        time.Duration // one-time code lifetime
	RefreshTTL     time.Duration // refresh token lifetime
	RefreshPerHour int           // POST /auth/refresh per address per hour
	LoginsPerHour  int           // GET /auth/sso/login per address per hour
}

// Deps are what the service is built from. Signer, MediaSigner, Limiter,
// SSO and PublishUserDeleted may be nil for operator commands that use none
// of them.
type Deps struct {
	DB          *db.DB
	Store       *store.Store
	Log         *slog.Logger
	Limiter     *ratelimit.Limiter
	Signer      *auth.Signer
	MediaSigner *auth.Signer
	SSO         *sso.Client
	// PublishUserDeleted announces a deletion inside its transaction.
	PublishUserDeleted func(ctx context.Context, userID int64) error
	// Forget drops a user's cached role in this process's verifiers.
	Forget func(userID int64)
	// Personal are the other modules keeping data a person owns, filled
	// once every module is built (their part of a person's export).
	Personal *[]module.PersonalData
	Config   Config
}

// Service is the identity use cases.
type Service struct {
	Deps
	now func() time.Time
}

// New makes the service.
func New(d Deps) *Service {
	if d.Forget == nil {
		d.Forget = func(int64) {}
	}
	return &Service{Deps: d, now: func() time.Time { return time.Now().UTC() }}
}

// User is an account as the service returns it: its own type because the
// stored row keeps the role as text and a settings blob read elsewhere.
type User struct {
	ID                int64
	Email             string
	Name              string
	Role              auth.Role
	Unthrottled       bool
	RemindersDisabled bool
	CreatedAt         time.Time
}

func toUser(u *store.User) User {
	return User{ID: u.ID, Email: u.Email, Name: u.Name, Role: auth.Role(u.Role),
		Unthrottled: u.Unthrottled, RemindersDisabled: u.RemindersDisabled, CreatedAt: u.CreatedAt}
}

// secret is a random URL-safe string of n bytes of entropy.
func secret(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// digest is what is stored of a secret: its SHA-256 (the secrets carry 256
// bits of entropy, so a fast hash is enough).
func digest(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}

// forget drops the user's cached role; call it after the change committed.
func (s *Service) forget(userID int64) { s.Forget(userID) }

// userOrNotFound maps a store miss to 404.
func userOrNotFound(u *store.User, err error) (*store.User, error) {
	if db.IsNotFound(err) {
		return nil, errNoUser
	}
	return u, err
}

func (s *Service) lockUser(ctx context.Context, id int64) (*store.User, error) {
	return userOrNotFound(s.Store.LockUser(ctx, id))
}
