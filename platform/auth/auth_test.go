package auth

import (
	"context"
	"testing"
	"time"

	"github.com/roundsedu/rounds/platform/apperr"
)

type dir map[int64]Account

func (d dir) Account(_ context.Context, id int64) (Account, error) {
	a, ok := d[id]
	if !ok {
		return Account{}, ErrUnknownUser
	}
	return a, nil
}

func TestTokenRoundTrip(t *testing.T) {
	s := NewSigner("k-0123456789abcdef0123456789abcdef", "rounds")
	tok, exp, err := s.Issue(7)
	if err != nil || exp != 86400 {
		t.Fatalf("issue: %v %d", err, exp)
	}
	v := NewVerifier(s, dir{7: {Role: RoleModerator}}, 0)
	p, err := v.Verify(context.Background(), tok)
	if err != nil || p.UserID != 7 || !p.IsModerator() || p.IsAdmin() {
		t.Fatalf("verify: %+v %v", p, err)
	}
}

func TestTokenRefusals(t *testing.T) {
	s := NewSigner("k-0123456789abcdef0123456789abcdef", "rounds")
	other := NewSigner("another-key-0123456789abcdef01234", "rounds")
	forged, _, _ := other.Issue(7)
	old := NewSigner("k-0123456789abcdef0123456789abcdef", "rounds")
	old.now = func() time.Time { return time.Now().Add(-25 * time.Hour) }
	expired, _, _ := old.Issue(7)
	gone, _, _ := s.Issue(8)

	v := NewVerifier(s, dir{7: {Role: RoleUser}}, time.Minute)
	for name, tok := range map[string]string{"forged": forged, "expired": expired, "garbage": "a.b.c", "deleted user": gone} {
		if _, err := v.Verify(context.Background(), tok); !apperr.Is(err, apperr.Unauthenticated) {
			t.Errorf("%s: want unauthenticated, got %v", name, err)
		}
	}
}

func TestLevels(t *testing.T) {
	user, mod, admin := Principal{Role: RoleUser}, Principal{Role: RoleModerator}, Principal{Role: RoleAdmin}
	if !User.Allows(user) || Mod.Allows(user) || !Mod.Allows(mod) || !Mod.Allows(admin) || Admin.Allows(mod) || !Admin.Allows(admin) {
		t.Error("level table wrong")
	}
}

func TestCachedTokenStillExpires(t *testing.T) {
	now := time.Now()
	s := NewSigner("k-0123456789abcdef0123456789abcdef", "rounds")
	s.now = func() time.Time { return now }
	tok, _, _ := s.Issue(7)
	d := dir{7: {Role: RoleUser}}
	v := NewVerifier(s, d, 0)
	for range 2 { // the second check is served by the token cache
		if p, err := v.Verify(context.Background(), tok); err != nil || p.UserID != 7 {
			t.Fatalf("verify: %+v %v", p, err)
		}
	}
	delete(d, 7)
	if _, err := v.Verify(context.Background(), tok); !apperr.Is(err, apperr.Unauthenticated) {
		t.Errorf("a cached token of a deleted account: want unauthenticated, got %v", err)
	}
	d[7] = Account{Role: RoleUser}
	now = now.Add(TokenTTL)
	if _, err := v.Verify(context.Background(), tok); !apperr.Is(err, apperr.Unauthenticated) {
		t.Errorf("a cached token past its expiry: want unauthenticated, got %v", err)
	}
}
