package identity_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/devidp"
)

var _ = Describe("Roles from the provider's groups", func() {
	It("maps groups to roles at sign-in, admin winning over moderator", func() {
		for _, c := range []struct {
			groups []string
			role   contract.UserResponseRole
		}{
			{[]string{"admins"}, contract.UserResponseRoleAdmin},
			{[]string{"staff"}, contract.UserResponseRoleAdmin},
			{[]string{"mods"}, contract.UserResponseRoleModerator},
			{[]string{"mods", "admins"}, contract.UserResponseRoleAdmin},
			{[]string{"other"}, contract.UserResponseRoleUser},
			{[]string{}, contract.UserResponseRoleUser},
		} {
			tok := hm.SignIn(idpm, person("mapped", c.groups...), false, "")
			Expect(me(hm, tok.AccessToken).Role).To(Equal(c.role), fmt.Sprint(c.groups))
		}
		// No role claim at all: a learner.
		tok := hm.SignIn(idpm, person("noclaim"), false, "")
		Expect(me(hm, tok.AccessToken).Role).To(Equal(contract.UserResponseRoleUser))
	})

	It("reapplies the groups at every sign-in", func() {
		claims := person("changing", "mods")
		tok := hm.SignIn(idpm, claims, false, "")
		Expect(me(hm, tok.AccessToken).Role).To(Equal(contract.UserResponseRoleModerator))

		claims.Groups = []string{"admins"}
		hm.SignIn(idpm, claims, false, "")
		// The role is read from the account, so even the first token sees it at once.
		Expect(me(hm, tok.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))

		claims.Groups = []string{}
		hm.SignIn(idpm, claims, false, "")
		Expect(me(hm, tok.AccessToken).Role).To(Equal(contract.UserResponseRoleUser))
	})

	It("answers 409 on both in-app role routes while mapping is on, and changes nothing", func() {
		admin := hm.NewUser(auth.RoleAdmin)
		mod := hm.NewUser(auth.RoleModerator)
		learner := hm.NewUser(auth.RoleUser)
		Expect(admin.Client(hm).Put(fmt.Sprintf("/api/v1/admin/users/%d/role", learner.ID),
			map[string]any{"role": "moderator"})).To(HaveError(409, "conflict"))
		Expect(mod.Client(hm).Put(fmt.Sprintf("/api/v1/access/%d/role", learner.ID),
			map[string]any{"role": "moderator"})).To(HaveError(409, "conflict"))
		Expect(admin.Client(hm).Put(fmt.Sprintf("/api/v1/access/%d/role", learner.ID),
			map[string]any{"role": "moderator"})).To(HaveError(409, "conflict"))
		Expect(me(hm, learner.Token).Role).To(Equal(contract.UserResponseRoleUser))
	})

	Describe("without mapping", func() {
		It("makes everyone new a learner, whatever groups the provider sends", func() {
			tok := h.SignIn(idp, person("groupie", "admins", "mods"), false, "")
			Expect(me(h, tok.AccessToken).Role).To(Equal(contract.UserResponseRoleUser))
		})

		It("keeps a role given in the app across sign-ins", func() {
			claims := person("kept", "whatever")
			tok := h.SignIn(idp, claims, false, "")
			id := me(h, tok.AccessToken).Id
			admin := h.NewUser(auth.RoleAdmin)
			Expect(admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/users/%d/role", id),
				map[string]any{"role": "moderator"})).To(HaveStatus(200))
			again := h.SignIn(idp, claims, false, "")
			Expect(me(h, again.AccessToken).Role).To(Equal(contract.UserResponseRoleModerator))
		})

		It("makes the bootstrap address an administrator at sign-in", func() {
			tok := h.SignIn(idp, devidp.Claims{Email: bootstrapAdmin, EmailVerified: verified(true)}, false, "")
			Expect(me(h, tok.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))
			Expect(tok.Client(h).Get("/api/v1/admin/users")).To(HaveStatus(200))
		})

		It("lets an operator promote an address before its first sign-in", func() {
			email := newEmail("operator-made")
			op, created, err := app.Lookup[*identity.Module](h.App).PromoteAdmin(ctxBG, email)
			Expect(err).NotTo(HaveOccurred())
			Expect(created).To(BeTrue())
			Expect(op.Role).To(Equal("admin"))
			tok := h.SignIn(idp, devidp.Claims{Email: email}, false, "")
			m := me(h, tok.AccessToken)
			Expect(m.Role).To(Equal(contract.UserResponseRoleAdmin))
			Expect(m.Id).To(Equal(op.ID))

			// Promoting an existing learner.
			learner := h.NewUser(auth.RoleUser)
			_, created, err = app.Lookup[*identity.Module](h.App).PromoteAdmin(ctxBG, learner.Email)
			Expect(err).NotTo(HaveOccurred())
			Expect(created).To(BeFalse())
			Expect(me(h, learner.Token).Role).To(Equal(contract.UserResponseRoleAdmin))
		})
	})
})

var _ = Describe("The last administrator", Ordered, func() {
	var x *Harness
	var p *IdP

	BeforeAll(func() {
		var err error
		p, err = StartIdP()
		Expect(err).NotTo(HaveOccurred())
		x, err = Start(WithSSO(p), withMapping, WithRole(app.RoleServe))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() {
			Expect(x.Stop()).To(Succeed())
			Expect(p.Stop()).To(Succeed())
		})
	})

	It("is not demoted when the groups no longer say admin", func() {
		ann := person("ann", "admins")
		annTok := x.SignIn(p, ann, false, "")
		Expect(me(x, annTok.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))

		ann.Groups = []string{}
		x.SignIn(p, ann, false, "")
		Expect(me(x, annTok.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))

		// With a second administrator, Ann's demotion goes through; Bob is then the last.
		bob := person("bob", "staff")
		bobTok := x.SignIn(p, bob, false, "")
		x.SignIn(p, ann, false, "")
		Expect(me(x, annTok.AccessToken).Role).To(Equal(contract.UserResponseRoleUser))

		bob.Groups = []string{"mods"}
		x.SignIn(p, bob, false, "")
		Expect(me(x, bobTok.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))
	})
})

// In the app an administrator acting on someone else meets the last-admin
// rule only when their own role changed elsewhere a moment ago (another
// replica, whose change this one's role cache has not seen yet). The test
// makes that happen with a long cache and a demotion written to the table.
var _ = Describe("The last administrator in the app", Ordered, func() {
	var x *Harness

	BeforeAll(func() {
		var err error
		x, err = Start(WithRole(app.RoleServe), WithConfig(func(c *config.Config) { c.Auth.RoleCacheTTL = time.Hour }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(x.Stop()).To(Succeed()) })
	})

	It("is neither demoted nor deleted: 409, and nothing changes", func() {
		// The harness's root administrator and one more: demoting the other
		// behind the app's back leaves root the last.
		last, stale := x.Root(), x.NewUser(auth.RoleAdmin)
		Expect(me(x, stale.Token).Role).To(Equal(contract.UserResponseRoleAdmin)) // cached as an administrator
		Expect(x.App.DB.Conn(ctxBG).Exec(`UPDATE identity.users SET role = 'user' WHERE id = ?`, stale.ID).Error).To(Succeed())

		c := stale.Client(x)
		Expect(c.Put(rolePath(last.ID), map[string]any{"role": "user"})).To(HaveError(409, "conflict"))
		Expect(c.Put(accessPath(last.ID), map[string]any{"role": "moderator"})).To(HaveError(409, "conflict"))
		Expect(c.Delete(userPath(last.ID))).To(HaveError(409, "conflict"))
		Expect(me(x, last.Token).Role).To(Equal(contract.UserResponseRoleAdmin))
	})
})

var _ = Describe("A provider that is down", Ordered, func() {
	var x *Harness

	BeforeAll(func() {
		p, err := StartIdP()
		Expect(err).NotTo(HaveOccurred())
		x, err = Start(WithSSO(p), WithRole(app.RoleServe))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(x.Stop()).To(Succeed()) })
		// Discovery is lazy: the app started, and first meets the provider gone.
		Expect(p.Stop()).To(Succeed())
	})

	It("answers the sign-in and sign-out redirects with 502", func() {
		b := x.Browser()
		Expect(b.Get("/api/v1/auth/sso/login")).To(HaveError(502, "upstream_failed"))
		Expect(b.Get("/api/v1/auth/sso/logout")).To(HaveError(502, "upstream_failed"))
		Expect(Body[contract.SSOConfig](x.Anon().Get("/api/v1/auth/sso/config")).Available).To(BeTrue())
	})
})

var _ = Describe("A server without a provider", Ordered, func() {
	var x *Harness

	BeforeAll(func() {
		var err error
		x, err = Start(WithoutSSO(), WithRole(app.RoleServe))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(x.Stop()).To(Succeed()) })
	})

	It("says single sign-on is unavailable", func() {
		Expect(Body[contract.SSOConfig](x.Anon().Get("/api/v1/auth/sso/config")).Available).To(BeFalse())
	})

	It("answers the sign-in routes with 503", func() {
		b := x.Browser()
		Expect(b.Get("/api/v1/auth/sso/login")).To(HaveError(503, "unavailable"))
		Expect(b.Get("/api/v1/auth/sso/callback?code=x&state=y")).To(HaveError(503, "unavailable"))
		Expect(b.Get("/api/v1/auth/sso/logout")).To(HaveError(503, "unavailable"))
	})
})
