// Package identity_test drives sign-in, tokens, sessions, accounts, people
// administration, roles and grants through HTTP, signing people in with the
// real OpenID Connect protocol against an in-process provider whose claims
// each test sets.
package identity_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/gin-gonic/gin"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/devidp"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
)

func TestIdentity(t *testing.T) { harness.RunSuite(t, "Identity") }

// Two apps: h with no provider role mapping (everyone new is a learner; a
// bootstrap administrator address), hm with groups deciding roles; idp and
// idpm are the providers they sign people in through.
var (
	h, hm     *harness.Harness
	idp, idpm *harness.IdP
	deleted   = &recorder{}
)

const (
	bootstrapAdmin = "root@bootstrap.test"
	refreshLimit   = 5
	loginLimit     = 5
)

// Roles stay cached in both: every role change must drop the cache itself.
var _ = harness.Suite(&h, func() { idp, idpm = h.IdP(), hm.IdP() },
	harness.WithConfig(func(c *config.Config) {
		c.Set("identity.bootstrap_admin_email", bootstrapAdmin)
		c.Set("identity.refresh_max_per_hour", refreshLimit)
		c.Set("identity.sso_logins_per_hour", loginLimit)
		c.Auth.RoleCacheTTL = time.Hour
	}),
	harness.BeforeStart(func(a *app.App) {
		registerMediaProbes(a)
		events.Subscribe(a.Bus, "identity_test.deleted", identity.TopicUserDeleted,
			func(_ context.Context, evt identity.UserDeleted, _ events.Meta) error {
				deleted.add(evt.UserID)
				return nil
			})
	}),
	harness.WithApp(&hm, withMapping, harness.WithConfig(func(c *config.Config) { c.Auth.RoleCacheTTL = time.Hour })))

// withMapping turns provider role mapping on: "groups" decides roles.
var withMapping = harness.WithConfig(func(c *config.Config) {
	c.Set("oidc.role_claim", "groups")
	c.Set("oidc.admin_groups", []string{"admins", "staff"})
	c.Set("oidc.moderator_groups", []string{"mods"})
})

// registerMediaProbes adds test-only routes that accept the media cookie:
// a raw gin route guarded as /uploads is, and an operation that opts in.
// The raw one sits under /api/v1 so that a built web client, which answers
// every other path outside /api and /uploads, never takes it.
func registerMediaProbes(a *app.App) {
	a.HTTP.Engine().GET("/api/v1/test-media/probe", a.HTTP.MediaGuard(auth.User), func(c *gin.Context) {
		p, _ := auth.From(c.Request.Context())
		c.JSON(http.StatusOK, gin.H{"user_id": p.UserID, "role": p.Role})
	})
	type probe struct {
		Body struct {
			UserID int64 `json:"user_id"`
		}
	}
	httpapi.Register(a.HTTP.Router(), auth.User, huma.Operation{
		Method: http.MethodGet, Path: "/test-media/op", Tags: []string{"media"},
		Metadata: map[string]any{httpapi.AcceptsMediaCookie: true},
	}, func(ctx context.Context, _ *struct{}) (*probe, error) {
		out := &probe{}
		out.Body.UserID = auth.MustFrom(ctx).UserID
		return out, nil
	})
}

type recorder struct {
	mu  sync.Mutex
	ids []int64
}

func (r *recorder) add(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ids = append(r.ids, id)
}

func (r *recorder) has(id int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range r.ids {
		if x == id {
			return true
		}
	}
	return false
}

var ctxBG = context.Background()

var seq atomic.Int64

// newEmail is an address no other test uses.
func newEmail(prefix string) string {
	return fmt.Sprintf("%s-%d@example.test", prefix, seq.Add(1))
}

// newAddress is a caller address no other test uses (rate limits key on it).
func newAddress() string {
	n := seq.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}

func verified(b bool) *bool { return &b }

// person is verified claims for a new address.
func person(prefix string, groups ...string) devidp.Claims {
	c := devidp.Claims{Email: newEmail(prefix), EmailVerified: verified(true), Name: "Person " + prefix}
	if groups != nil {
		c.Groups = groups
	}
	return c
}

// me reads the caller's account.
func me(x *harness.Harness, token string) contract.UserResponse {
	res := x.As(token).Get("/api/v1/auth/me")
	ExpectWithOffset(1, res).To(harness.HaveStatus(200))
	return harness.Body[contract.UserResponse](res)
}

// detail is what an error answer's envelope says in detail.
func detail(res *harness.Response) any { return harness.Body[contract.Envelope](res).Detail }

// userCount counts accounts with this address (case-insensitively).
func userCount(x *harness.Harness, email string) int64 {
	var n int64
	Expect(x.App.DB.Conn(context.Background()).
		Raw(`SELECT count(*) FROM identity.users WHERE lower(email) = lower(?)`, email).Scan(&n).Error).To(Succeed())
	return n
}

// refresh posts a refresh token from a fresh address (so the suite's low
// refresh limit only bites where a test means it to).
func refresh(x *harness.Harness, token string) *harness.Response {
	return x.Anon().With("X-Forwarded-For", newAddress()).
		Post("/api/v1/auth/refresh", map[string]any{"refresh_token": token})
}

// rotate spends a refresh token at h and returns the new pair.
func rotate(token string) contract.Token {
	res := refresh(h, token)
	ExpectWithOffset(1, res).To(harness.HaveStatus(200))
	next := harness.Body[contract.Token](res)
	ExpectWithOffset(1, next.RefreshToken).NotTo(BeNil(), "a refresh answers with the next refresh token")
	return next
}
