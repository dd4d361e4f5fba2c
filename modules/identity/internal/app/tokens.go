package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/ratelimit"
	"github.com/roundsedu/rounds/platform/text"
)

// Tokens is what a sign-in or a refresh hands out.
type Tokens struct {
	UserID       int64
	AccessToken  string
	ExpiresIn    int
	RefreshToken string // only when asked for
	// MediaToken is the value of the media cookie: it authenticates
	// /uploads only and is refused as a bearer token.
	MediaToken string
}

const maxDeviceLen = 100

// CodeExchange is a one-time code traded at POST /auth/sso/exchange, with
// the proof that it comes from the client that started the sign-in: the
// browser secret from its cookie, or the verifier of its challenge.
type CodeExchange struct {
	Code     string
	Browser  string
	Verifier string
	Refresh  bool
	Device   string
}

// Exchange trades a one-time code for tokens. The code is deleted as it is
// read, so a replay finds nothing; an expired one is deleted too, and so is
// one the caller cannot prove is theirs (binding.go), which is refused.
func (s *Service) Exchange(ctx context.Context, in CodeExchange) (*Tokens, error) {
	code, refresh, device := in.Code, in.Refresh, in.Device
	var row *store.SSOCode
	var refreshToken string
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		var err error
		row, err = s.Store.TakeCode(ctx, digest(code))
		if db.IsNotFound(err) {
			return apperr.BadRequestf("this sign-in code is unknown or was already used: sign in again")
		}
		if err != nil || s.now().After(row.ExpiresAt) || !boundTo(row, in.Browser, in.Verifier) {
			return err // an expired or foreign code is answered after the delete commits
		}
		if refresh {
			refreshToken, err = s.startFamily(ctx, row.UserID, device)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.now().After(row.ExpiresAt) {
		return nil, apperr.BadRequestf("this sign-in code has expired (codes last %s): sign in again", s.Config.CodeTTL)
	}
	if !boundTo(row, in.Browser, in.Verifier) {
		s.Log.WarnContext(ctx, "a sign-in code was presented by a client that did not start its sign-in",
			"user_id", row.UserID)
		return nil, ErrForeignCode
	}
	tok, err := s.issue(row.UserID, true)
	if err != nil {
		return nil, err
	}
	tok.RefreshToken = refreshToken
	return tok, nil
}

// startFamily opens a session family for a device and returns its first
// refresh token.
func (s *Service) startFamily(ctx context.Context, userID int64, device string) (string, error) {
	now := s.now()
	token := secret(32)
	sess := &store.Session{ID: secret(16), UserID: userID, Device: text.Clip(device, maxDeviceLen),
		LastUsedAt: now, ExpiresAt: now.Add(s.Config.RefreshTTL)}
	first := &store.RefreshToken{TokenHash: digest(token), SessionID: sess.ID, ExpiresAt: sess.ExpiresAt}
	return token, s.Store.CreateSession(ctx, sess, first)
}

func (s *Service) issue(userID int64, media bool) (*Tokens, error) {
	access, expiresIn, err := s.Signer.Issue(userID)
	if err != nil {
		return nil, err
	}
	t := &Tokens{UserID: userID, AccessToken: access, ExpiresIn: expiresIn}
	if media {
		if t.MediaToken, _, err = s.MediaSigner.Issue(userID); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Refresh spends a refresh token and issues a new pair in the same family.
// A spent token presented again ends its whole family. Counted per address.
func (s *Service) Refresh(ctx context.Context, token, address string) (*Tokens, error) {
	limit := ratelimit.Limit{Name: "identity.refresh", Max: s.Config.RefreshPerHour, Window: time.Hour}
	if err := s.Limiter.Allow(ctx, limit, address); err != nil {
		return nil, err
	}
	var userID int64
	var next string
	reused := false
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		rt, sess, err := s.Store.LockRefreshToken(ctx, digest(token))
		if db.IsNotFound(err) {
			return errBadRefresh
		}
		if err != nil {
			return err
		}
		now := s.now()
		if rt.SpentAt != nil {
			reused = true // commit the ending, then refuse
			_, err := s.Store.DeleteSession(ctx, sess.UserID, sess.ID)
			return err
		}
		if now.After(rt.ExpiresAt) {
			return errRefreshExpiry
		}
		next = secret(32)
		userID = sess.UserID
		return s.Store.RotateRefreshToken(ctx, rt.TokenHash,
			&store.RefreshToken{TokenHash: digest(next), SessionID: sess.ID, ExpiresAt: now.Add(s.Config.RefreshTTL)}, now)
	})
	if err != nil {
		return nil, err
	}
	if reused {
		s.Log.WarnContext(ctx, "spent refresh token presented again: session family ended", "address", address)
		return nil, errRefreshReuse
	}
	tok, err := s.issue(userID, false)
	if err != nil {
		return nil, err
	}
	tok.RefreshToken = next
	return tok, nil
}

// Logout ends the caller's family the refresh token belongs to, or every
// family when everywhere is set. A token that is unknown or someone
// else's ends nothing (logout is idempotent and reveals nothing).
func (s *Service) Logout(ctx context.Context, userID int64, refreshToken string, everywhere bool) error {
	if everywhere {
		return s.Store.DeleteSessionsOf(ctx, userID)
	}
	if refreshToken == "" {
		return nil
	}
	return s.Store.DeleteSessionOfToken(ctx, userID, digest(refreshToken))
}

// Session is one family as its owner sees it: the stored row (its ID is the
// family).
type Session = store.Session

// Sessions pages through the caller's live families.
func (s *Service) Sessions(ctx context.Context, userID int64, limit, offset int) ([]Session, int64, error) {
	rows, err := s.Store.ListSessions(ctx, userID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	total, err := s.Store.CountSessions(ctx, userID)
	if err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}

// EndSession ends one of the caller's families; 404 for any other.
func (s *Service) EndSession(ctx context.Context, userID int64, family string) error {
	ok, err := s.Store.DeleteSession(ctx, userID, family)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFoundf("no such session")
	}
	return nil
}
