package app

import (
	"context"
	"crypto/subtle"
	"net/url"
	"time"

	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/ratelimit"
	"github.com/roundsedu/rounds/platform/text"
)

// LoginTTL is how long a sign-in may take between login and callback.
const LoginTTL = 10 * time.Minute

// SSOInfo answers GET /auth/sso/config.
type SSOInfo struct {
	Available   bool
	RoleMapping bool
}

// SSOInfo tells whether sign-in is configured and whether roles come from
// the provider.
func (s *Service) SSOInfo() SSOInfo {
	return SSOInfo{Available: s.SSO.Enabled(), RoleMapping: s.Config.Roles.MappingOn()}
}

// Login is a request to start signing in.
type Login struct {
	// Browser is the browser's binding secret (from its cookie); when empty
	// a new one is made and returned for the cookie.
	Browser string
	// Challenge is the S256 challenge of a verifier the client keeps, for
	// the exchange to prove (optional; see binding.go).
	Challenge string
	// Address is the caller's, which the sign-in allowance counts.
	Address string
}

// BeginLogin records a sign-in bound to the browser (and to the client's
// challenge, when given) and returns the provider URL to send it to and
// the browser secret for the cookie. Each address may start
// identity.sso_logins_per_hour sign-ins, counted before anything is
// asked or stored, so an anonymous caller cannot fill the table.
func (s *Service) BeginLogin(ctx context.Context, in Login) (redirect, binding string, err error) {
	if !s.SSO.Enabled() {
		return "", "", errSSOOff
	}
	challenge, err := checkChallenge(in.Challenge)
	if err != nil {
		return "", "", err
	}
	limit := ratelimit.Limit{Name: "identity.sso_login", Max: s.Config.LoginsPerHour, Window: time.Hour}
	if err := s.Limiter.Allow(ctx, limit, in.Address); err != nil {
		return "", "", err
	}
	browser := in.Browser
	if len(browser) < 32 || len(browser) > 128 {
		browser = secret(32)
	}
	state, nonce, verifier := secret(32), secret(32), secret(48)
	redirect, err = s.SSO.AuthURL(ctx, state, nonce, verifier)
	if err != nil {
		return "", "", err
	}
	err = s.DB.Tx(ctx, func(ctx context.Context) error {
		return s.Store.CreateLogin(ctx, &store.SSOLogin{StateHash: digest(state), BrowserHash: digest(browser),
			Challenge: challenge, Nonce: nonce, Verifier: verifier, ExpiresAt: s.now().Add(LoginTTL)})
	})
	if err != nil {
		return "", "", err
	}
	return redirect, browser, nil
}

// Callback is what the provider's redirect carries.
type Callback struct {
	State, Code, Error, ErrorDescription string
	Browser                              string // the binding secret from the browser's cookie
}

// FinishLogin checks the state against the browser, redeems the code at the
// provider, matches or creates the account, applies the role, and returns
// the client URL carrying a one-time code.
func (s *Service) FinishLogin(ctx context.Context, cb Callback) (string, error) {
	if !s.SSO.Enabled() {
		return "", errSSOOff
	}
	if cb.State == "" {
		return "", apperr.BadRequestf("the callback carries no state: start the sign-in from the application")
	}
	login, err := s.Store.TakeLogin(ctx, digest(cb.State))
	if db.IsNotFound(err) || (err == nil && s.now().After(login.ExpiresAt)) {
		return "", apperr.BadRequestf("this sign-in is unknown, expired or already finished: start again")
	}
	if err != nil {
		return "", err
	}
	if cb.Browser == "" || subtle.ConstantTimeCompare(digest(cb.Browser), login.BrowserHash) != 1 {
		return "", apperr.BadRequestf("this sign-in was started in another browser (or its cookie was lost): start again here")
	}
	if cb.Error != "" {
		msg := cb.Error
		if cb.ErrorDescription != "" {
			msg += ": " + cb.ErrorDescription
		}
		return "", apperr.BadRequestf("the identity provider did not sign you in (%s)", text.Clip(msg, 300))
	}
	if cb.Code == "" {
		return "", apperr.BadRequestf("the callback carries no code: start again")
	}
	claims, err := s.SSO.Redeem(ctx, cb.Code, login.Verifier, login.Nonce)
	if err != nil {
		return "", err
	}
	id, err := ReadClaims(claims, s.Config.Roles.Claim)
	if err != nil {
		return "", err
	}
	if s.Config.Roles.MappingOn() && !id.HasGroups {
		s.Log.WarnContext(ctx, "sign-in without the role claim while role mapping is on: the person becomes a learner",
			"claim", s.Config.Roles.Claim, "email", id.Email)
	}
	code := secret(32)
	var userID int64
	var roleChanged bool
	err = s.DB.Tx(ctx, func(ctx context.Context) error {
		u, changed, err := s.signIn(ctx, id)
		if err != nil {
			return err
		}
		userID, roleChanged = u.ID, changed
		return s.Store.CreateCode(ctx, &store.SSOCode{CodeHash: digest(code), UserID: u.ID,
			BrowserHash: login.BrowserHash, Challenge: login.Challenge, ExpiresAt: s.now().Add(s.Config.CodeTTL)})
	})
	if err != nil {
		return "", err
	}
	if roleChanged {
		s.forget(userID)
	}
	return withQuery(s.Config.ClientURL, "code", code)
}

// signIn matches the account by address (creating it on first sign-in) and
// applies the role the policy decides, never demoting the last administrator.
func (s *Service) signIn(ctx context.Context, id Identity) (u *store.User, roleChanged bool, err error) {
	role, apply := s.Config.Roles.Decide(id.Email, id.Groups)
	u, err = s.Store.LockUserByEmail(ctx, id.Email)
	if db.IsNotFound(err) {
		fresh := &store.User{Email: id.Email, Name: id.Name, Role: string(role)}
		inserted, ierr := s.Store.InsertUserIfAbsent(ctx, fresh)
		if ierr != nil {
			return nil, false, ierr
		}
		if inserted {
			return fresh, false, nil
		}
		// Another sign-in created it a moment ago: lock theirs.
		u, err = s.Store.LockUserByEmail(ctx, id.Email)
	}
	if err != nil {
		return nil, false, err
	}
	if !apply || auth.Role(u.Role) == role {
		return u, false, nil
	}
	if u.Role == string(auth.RoleAdmin) {
		last, err := s.lastAdmin(ctx)
		if err != nil {
			return nil, false, err
		}
		if last {
			s.Log.WarnContext(ctx, "kept the last administrator although the provider's groups demote them",
				"user_id", u.ID, "email", u.Email, "groups", id.Groups)
			return u, false, nil
		}
	}
	if err := s.Store.UpdateUser(ctx, u.ID, map[string]any{"role": string(role)}); err != nil {
		return nil, false, err
	}
	u.Role = string(role)
	return u, true, nil
}

// lastAdmin takes the admin-set lock and reports whether exactly one
// administrator is left. Call it before taking an administrator away.
func (s *Service) lastAdmin(ctx context.Context) (bool, error) {
	if err := s.Store.LockAdminSet(ctx); err != nil {
		return false, err
	}
	n, err := s.Store.CountAdmins(ctx)
	return n <= 1, err
}

// LogoutURL is where GET /auth/sso/logout sends the browser: the provider's
// end-session endpoint coming back to the client, or the client itself when
// the provider has none.
func (s *Service) LogoutURL(ctx context.Context) (string, error) {
	if !s.SSO.Enabled() {
		return "", errSSOOff
	}
	u, err := s.SSO.EndSessionURL(ctx, s.Config.ClientURL)
	if err != nil || u != "" {
		return u, err
	}
	return s.Config.ClientURL, nil
}

func withQuery(raw, key, value string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String(), nil
}
