// Package identity owns users, sign-in through OpenID Connect, access and
// refresh tokens, sessions, roles and editorial grants. Other modules learn
// about people only through Facade.
package identity

import (
	"context"
	_ "embed"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	identityhttp "github.com/roundsedu/rounds/modules/identity/internal/http"
	"github.com/roundsedu/rounds/modules/identity/internal/sso"
	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// OIDC configures the external identity provider, the only way in
// (section oidc).
type OIDC struct {
	Issuer          string   `mapstructure:"issuer" validate:"omitempty,url"`
	ClientID        string   `mapstructure:"client_id" validate:"required_with=Issuer"`
	ClientSecret    string   `mapstructure:"client_secret" secret:"true"`
	RedirectURL     string   `mapstructure:"redirect_url" validate:"omitempty,url"`
	Scopes          []string `mapstructure:"scopes"`
	RoleClaim       string   `mapstructure:"role_claim"`
	AdminGroups     []string `mapstructure:"admin_groups"`
	ModeratorGroups []string `mapstructure:"moderator_groups"`
	ClientURL       string   `mapstructure:"client_url" validate:"required_with=Issuer,omitempty,url"`
}

// Config is account policy (section identity).
type Config struct {
	BootstrapAdminEmail string        `mapstructure:"bootstrap_admin_email" validate:"omitempty,email"`
	CodeTTL             time.Duration `mapstructure:"code_ttl" validate:"gt=0"`
	RefreshTTL          time.Duration `mapstructure:"refresh_ttl" validate:"gt=0"`
	RefreshMaxPerHour   int           `mapstructure:"refresh_max_per_hour" validate:"gte=1"`
	SSOLoginsPerHour    int           `mapstructure:"sso_logins_per_hour" validate:"gte=1"`
}

//go:embed config.yaml
var defaults []byte

// Module is the identity bounded context.
type Module struct {
	store     *store.Store
	svc       *app.Service
	handlers  *identityhttp.Handlers
	verifiers []*auth.Verifier
	oidc      OIDC
	publicURL string
	personal  *[]module.PersonalData // filled once every module is built
}

var _ Facade = (*Module)(nil)

// New builds the module.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	oidc, err := module.Section[OIDC](k, "oidc", defaults)
	if err != nil {
		return nil, err
	}
	cfg, err := module.Section[Config](k, "identity", defaults)
	if err != nil {
		return nil, err
	}
	publicURL := k.Config.Service.PublicURL
	st := store.New(k.DB)
	m := &Module{store: st, verifiers: k.Verifiers, oidc: oidc, publicURL: publicURL}
	personal := new([]module.PersonalData)
	module.NeedAll(k, personal)
	m.personal = personal
	client := sso.New(sso.Settings{Issuer: oidc.Issuer, ClientID: oidc.ClientID,
		ClientSecret: oidc.ClientSecret, RedirectURL: CallbackURL(publicURL, oidc), Scopes: oidc.Scopes,
		RoleClaim: oidc.RoleClaim})
	m.svc = app.New(app.Deps{
		DB: k.DB, Store: st, Log: k.Log, Limiter: k.Limiter,
		Signer: k.Signer, MediaSigner: k.MediaSigner, SSO: client,
		Forget: m.forget, Personal: personal,
		PublishUserDeleted: func(ctx context.Context, userID int64) error {
			return events.Publish(ctx, k.Bus, TopicUserDeleted, UserDeleted{UserID: userID})
		},
		Config: app.Config{
			Roles: app.RolePolicy{Claim: oidc.RoleClaim, AdminGroups: oidc.AdminGroups,
				ModeratorGroups: oidc.ModeratorGroups, BootstrapEmail: cfg.BootstrapAdminEmail},
			ClientURL: oidc.ClientURL, CodeTTL: cfg.CodeTTL, RefreshTTL: cfg.RefreshTTL,
			RefreshPerHour: cfg.RefreshMaxPerHour, LoginsPerHour: cfg.SSOLoginsPerHour,
		},
	})
	m.handlers = identityhttp.New(m.svc, k.Config.Service.Name, publicURL)
	return m, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "identity" }

// OIDC is the provider configuration in use (the development provider
// registers this service as its client from it).
func (m *Module) OIDC() OIDC { return m.oidc }

// Callback is this service's own sign-in callback URL.
func (m *Module) Callback() string { return CallbackURL(m.publicURL, m.oidc) }

// CallbackURL is where the provider sends the browser back: oidc.redirect_url,
// or the service's own callback route under its public URL.
func CallbackURL(publicURL string, o OIDC) string {
	if o.RedirectURL != "" {
		return o.RedirectURL
	}
	return strings.TrimRight(publicURL, "/") + httpapi.Prefix + "/auth/sso/callback"
}

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

// Subscribe runs every module's ForgetPersonalData when an account is
// deleted (by an administrator or by its owner), each in its own consumer
// group `<module>.forget_user`: a module that keeps a person's rows joins
// the deletion, as it joins the export, by implementing
// module.PersonalData and nothing more.
func (m *Module) Subscribe(b *events.Bus) {
	for _, p := range *m.personal {
		events.Subscribe(b, p.Name()+".forget_user", TopicUserDeleted,
			func(ctx context.Context, e UserDeleted, _ events.Meta) error {
				return p.ForgetPersonalData(ctx, e.UserID)
			})
	}
}
