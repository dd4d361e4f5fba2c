// Package identity owns users, sign-in through OpenID Connect, access and
// refresh tokens, sessions, roles and editorial grants. Other modules learn
// about people only through Facade.
package identity

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	identityhttp "github.com/roundsedu/rounds/modules/identity/internal/http"
	"github.com/roundsedu/rounds/modules/identity/internal/sso"
	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// Deps is what the module is built from. Operator commands may leave Bus,
// Limiter and the signers nil.
type Deps struct {
	DB      *db.DB
	Log     *slog.Logger
	Bus     events.Publisher
	Limiter *ratelimit.Limiter
	// Signer issues access tokens; MediaSigner the media cookie's value.
	Signer      *auth.Signer
	MediaSigner *auth.Signer
	OIDC        config.OIDC
	Config      config.Identity
	// ServiceName names the cookies; PublicURL builds the default callback
	// URL and makes cookies Secure when it is https.
	ServiceName string
	PublicURL   string
}

// Module is the identity bounded context.
type Module struct {
	store     *store.Store
	svc       *app.Service
	handlers  *identityhttp.Handlers
	verifiers []*auth.Verifier
}

var _ Facade = (*Module)(nil)

// New builds the module.
func New(d Deps) *Module {
	st := store.New(d.DB)
	m := &Module{store: st}
	client := sso.New(sso.Settings{Issuer: d.OIDC.Issuer, ClientID: d.OIDC.ClientID,
		ClientSecret: d.OIDC.ClientSecret, RedirectURL: CallbackURL(d.PublicURL, d.OIDC), Scopes: d.OIDC.Scopes,
		RoleClaim: d.OIDC.RoleClaim})
	m.svc = app.New(app.Deps{
		DB: d.DB, Store: st, Log: d.Log, Limiter: d.Limiter,
		Signer: d.Signer, MediaSigner: d.MediaSigner, SSO: client,
		Forget: m.forget,
		PublishUserDeleted: func(ctx context.Context, userID int64) error {
			if d.Bus == nil {
				return errNoBus
			}
			return d.Bus.Publish(ctx, TopicUserDeleted, UserDeleted{UserID: userID})
		},
		Config: app.Config{
			Roles: app.RolePolicy{Claim: d.OIDC.RoleClaim, AdminGroups: d.OIDC.AdminGroups,
				ModeratorGroups: d.OIDC.ModeratorGroups, BootstrapEmail: d.Config.BootstrapAdminEmail},
			ClientURL: d.OIDC.ClientURL, CodeTTL: d.Config.CodeTTL, RefreshTTL: d.Config.RefreshTTL,
			RefreshPerHour: d.Config.RefreshMaxPerHour,
		},
	})
	m.handlers = identityhttp.New(m.svc, d.ServiceName, d.PublicURL)
	return m
}

// CallbackURL is where the provider sends the browser back: oidc.redirect_url,
// or the service's own callback route under its public URL.
func CallbackURL(publicURL string, o config.OIDC) string {
	if o.RedirectURL != "" {
		return o.RedirectURL
	}
	return strings.TrimRight(publicURL, "/") + httpapi.Prefix + "/auth/sso/callback"
}

// UseVerifiers names the verifiers whose cached roles a role change must
// drop (they are built after the module: they read accounts through it).
func (m *Module) UseVerifiers(vs ...*auth.Verifier) { m.verifiers = append(m.verifiers, vs...) }

func (m *Module) forget(userID int64) {
	for _, v := range m.verifiers {
		v.Forget(userID)
	}
}

// Routes declares identity's operations.
func (m *Module) Routes(r *httpapi.Router) { m.handlers.Register(r) }

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

// Grants implements Facade.
func (m *Module) Grants(ctx context.Context, userID int64) ([]Grant, error) {
	gs, err := m.svc.Grants(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]Grant, len(gs))
	for i, g := range gs {
		out[i] = Grant{ID: g.ID, UserID: g.UserID, Kind: GrantKind(g.Kind), TargetID: g.TargetID,
			Scope: g.Scope, GrantedBy: g.GrantedBy, CreatedAt: g.CreatedAt}
	}
	return out, nil
}

// User implements Facade.
func (m *Module) User(ctx context.Context, userID int64) (UserInfo, error) {
	u, err := m.store.UserByID(ctx, userID)
	if db.IsNotFound(err) {
		return UserInfo{}, ErrUserNotFound
	}
	if err != nil {
		return UserInfo{}, err
	}
	return toUserInfo(u), nil
}

// Users implements Facade.
func (m *Module) Users(ctx context.Context, userIDs []int64) (map[int64]UserInfo, error) {
	rows, err := m.store.UsersByIDs(ctx, userIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]UserInfo, len(rows))
	for i := range rows {
		out[rows[i].ID] = toUserInfo(&rows[i])
	}
	return out, nil
}

func toUserInfo(u *store.User) UserInfo {
	return UserInfo{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, RemindersDisabled: u.RemindersDisabled}
}

// PromoteAdmin makes the account with this address an administrator,
// creating it when nobody has signed in with it yet (the way to a first
// administrator when the provider sends no groups). It reports whether the
// account was created. Running processes see the change within
// auth.role_cache_ttl.
func (m *Module) PromoteAdmin(ctx context.Context, email string) (UserInfo, bool, error) {
	u, created, err := m.svc.Promote(ctx, email)
	if err != nil {
		return UserInfo{}, false, err
	}
	return UserInfo{ID: u.ID, Email: u.Email, Name: u.Name, Role: string(u.Role),
		RemindersDisabled: u.RemindersDisabled}, created, nil
}

// Admins lists the administrators in id order.
func (m *Module) Admins(ctx context.Context) ([]UserInfo, error) {
	rows, err := m.store.Admins(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]UserInfo, len(rows))
	for i := range rows {
		out[i] = toUserInfo(&rows[i])
	}
	return out, nil
}

// RoleMappingOn reports whether the provider's groups decide roles (an
// operator's promotion is then undone at the person's next sign-in unless
// their groups agree).
func (m *Module) RoleMappingOn() bool { return m.svc.Config.Roles.MappingOn() }

// errNoBus is what deleting a user answers in a build without events
// (operator commands).
var errNoBus = errors.New("identity: no event bus")
