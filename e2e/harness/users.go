package harness

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/spf13/cast"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/devidp"
)

// RootEmail is the harness's bootstrap administrator (identity.
// bootstrap_admin_email): signing in with it makes an admin, who then gives
// other test users their roles through the API.
const RootEmail = "root@e2e.test"

var userSeq atomic.Int64

// NewUser signs a new person in through the real SSO flow (the provider's
// login page, the app's callback, the code exchange) and gives them the
// role as a deployment would: with provider role mapping on, through the
// groups the provider sends; otherwise the root administrator gives it with
// PUT /admin/users/{id}/role. One call per user a test needs; it panics
// when a step fails.
func (h *Harness) NewUser(role auth.Role) *User {
	n := userSeq.Add(1)
	email := fmt.Sprintf("%s%d@example.test", role, n)
	claims := devidp.Claims{Email: email, Name: fmt.Sprintf("Test %s %d", role, n)}
	if group := h.mappedGroup(role); group != "" {
		claims.Groups = []string{group}
	}
	u := h.signInAs(claims)
	if role != u.Role {
		res := h.Root().Client(h).Put("/api/v1/admin/users/"+strconv.FormatInt(u.ID, 10)+"/role",
			map[string]any{"role": role})
		if res.Status != http.StatusOK {
			panic(fmt.Sprintf("harness: give %s the %s role: status %d (is provider role mapping on? "+
				"then sign in with groups through SignIn)\nbody: %s", email, role, res.Status, res.Body))
		}
		u.Role = role
	}
	return u
}

// mappedGroup is a provider group that maps to role while role mapping is
// on ("" when it is off, or for a learner).
func (h *Harness) mappedGroup(role auth.Role) string {
	if cast.ToString(h.Config.Get("oidc.role_claim")) != "groups" {
		return ""
	}
	var groups []string
	switch role {
	case auth.RoleAdmin:
		groups = cast.ToStringSlice(h.Config.Get("oidc.admin_groups"))
	case auth.RoleModerator:
		groups = cast.ToStringSlice(h.Config.Get("oidc.moderator_groups"))
	}
	if len(groups) == 0 {
		return ""
	}
	return groups[0]
}

// Root is the bootstrap administrator (RootEmail unless the suite set
// another identity.bootstrap_admin_email), signed in once per harness.
func (h *Harness) Root() *User {
	h.rootOnce.Do(func() {
		h.rootUser = h.signInAs(devidp.Claims{Email: h.rootEmail, Name: "Root"})
		if h.rootUser.Role != auth.RoleAdmin {
			panic(fmt.Sprintf("harness: %s signed in as %s, not admin: is identity.bootstrap_admin_email set to it?",
				h.rootEmail, h.rootUser.Role))
		}
	})
	return h.rootUser
}

// signInAs runs the browser flow for claims and reads back who the app
// says the person is.
func (h *Harness) signInAs(claims devidp.Claims) *User {
	if h.idp == nil {
		panic("harness: this harness runs without an identity provider (WithoutSSO): nobody can sign in")
	}
	t := h.SignIn(h.idp, claims, false, "")
	res := t.Client(h).Get("/api/v1/auth/me")
	if res.Status != http.StatusOK {
		panic(fmt.Sprintf("harness: GET /auth/me after sign-in: status %d\nbody: %s", res.Status, res.Body))
	}
	var me struct {
		ID    int64     `json:"id"`
		Email string    `json:"email"`
		Role  auth.Role `json:"role"`
	}
	res.JSON(&me)
	return &User{ID: me.ID, Email: me.Email, Role: me.Role, Token: t.AccessToken, Cookies: t.Cookies}
}

// rootState is the harness's lazily signed-in administrator.
type rootState struct {
	rootEmail string
	rootOnce  sync.Once
	rootUser  *User
}
