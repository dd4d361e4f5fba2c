package identity_test

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/devidp"
)

func rolePath(id int64) string   { return fmt.Sprintf("/api/v1/admin/users/%d/role", id) }
func accessPath(id int64) string { return fmt.Sprintf("/api/v1/access/%d/role", id) }
func userPath(id int64) string   { return fmt.Sprintf("/api/v1/admin/users/%d", id) }

var _ = Describe("People administration", func() {
	It("is for administrators only", func() {
		learner, mod := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleModerator)
		target := h.NewUser(auth.RoleUser)
		for _, c := range []*Client{learner.Client(h), mod.Client(h)} {
			Expect(c.Get("/api/v1/admin/users")).To(HaveError(403, "forbidden"))
			Expect(c.Post("/api/v1/admin/users", map[string]any{"email": newEmail("x"), "name": "X"})).To(HaveError(403, "forbidden"))
			Expect(c.Put(rolePath(target.ID), map[string]any{"role": "moderator"})).To(HaveError(403, "forbidden"))
			Expect(c.Put(userPath(target.ID)+"/unthrottle", map[string]any{"unthrottled": true})).To(HaveError(403, "forbidden"))
			Expect(c.Delete(userPath(target.ID))).To(HaveError(403, "forbidden"))
		}
		Expect(h.Anon().Get("/api/v1/admin/users")).To(HaveError(401, "unauthenticated"))
		Expect(me(h, target.Token).Role).To(Equal(contract.UserResponseRoleUser))
	})

	It("lists accounts page by page with the total", func() {
		admin := h.NewUser(auth.RoleAdmin)
		for i := 0; i < 3; i++ {
			h.NewUser(auth.RoleUser)
		}
		c := admin.Client(h)
		first := c.Get("/api/v1/admin/users?limit=2")
		Expect(first).To(HaveStatus(200))
		total, err := strconv.Atoi(first.Header.Get("X-Total-Count"))
		Expect(err).NotTo(HaveOccurred())
		Expect(total).To(BeNumerically(">=", 4))
		page1 := Body[[]contract.UserResponse](first)
		Expect(page1).To(HaveLen(2))
		page2 := Body[[]contract.UserResponse](c.Get("/api/v1/admin/users?limit=2&offset=2"))
		Expect(page2).NotTo(BeEmpty())
		Expect(page1[1].Id).To(BeNumerically("<", page2[0].Id))
		Expect(page1[0].Email).NotTo(BeEmpty())
		Expect(page1[0].Name).NotTo(BeEmpty())
		Expect(page1[0].Role.Valid()).To(BeTrue(), string(page1[0].Role))
		Expect(page1[0].CreatedAt).NotTo(BeZero())
		Expect(string(first.Body)).To(ContainSubstring(`"unthrottled":`))
		Expect(c.Get("/api/v1/admin/users?limit=0")).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/admin/users?limit=201")).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/admin/users?offset=-1")).To(HaveError(422, "invalid_request"))
	})

	Describe("creating an account", func() {
		It("creates it ahead of the first sign-in, which then matches it", func() {
			admin := h.NewUser(auth.RoleAdmin)
			email := newEmail("precreated")
			res := admin.Client(h).Post("/api/v1/admin/users", map[string]any{"email": email, "password": "ignored", "name": "Pre Created"})
			Expect(res).To(HaveStatus(201))
			created := Body[contract.UserResponse](res)
			Expect(created.Email).To(Equal(email))
			Expect(created.Name).To(Equal("Pre Created"))
			Expect(created.Role).To(Equal(contract.UserResponseRoleUser))
			tok := h.SignIn(idp, devidp.Claims{Email: strings.ToUpper(email), Name: "Other Name"}, false, "")
			m := me(h, tok.AccessToken)
			Expect(m.Id).To(Equal(created.Id))
			Expect(m.Name).To(Equal("Pre Created"))
		})

		It("refuses a taken address (any letter case) with 409", func() {
			admin := h.NewUser(auth.RoleAdmin)
			taken := h.NewUser(auth.RoleUser)
			res := admin.Client(h).Post("/api/v1/admin/users", map[string]any{"email": strings.ToUpper(taken.Email), "name": "Dup"})
			Expect(res).To(HaveError(409, "conflict"))
			Expect(userCount(h, taken.Email)).To(Equal(int64(1)))
		})

		It("refuses bad input and creates nothing", func() {
			c := h.NewUser(auth.RoleAdmin).Client(h)
			Expect(c.Post("/api/v1/admin/users", map[string]any{"email": "not-an-email", "name": "X"})).To(HaveError(422, "invalid_request"))
			email := newEmail("bad")
			Expect(c.Post("/api/v1/admin/users", map[string]any{"email": email})).To(HaveError(422, "invalid_request"))
			Expect(c.Post("/api/v1/admin/users", map[string]any{"email": email, "name": ""})).To(HaveError(422, "invalid_request"))
			Expect(c.Post("/api/v1/admin/users", map[string]any{"email": email, "name": "X", "role": "admin"})).To(HaveError(422, "invalid_request"))
			Expect(userCount(h, email)).To(BeZero())
		})
	})

	Describe("changing a role as an administrator", func() {
		It("changes someone's role, effective at once", func() {
			admin, target := h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleUser)
			res := admin.Client(h).Put(rolePath(target.ID), map[string]any{"role": "moderator"})
			Expect(res).To(HaveStatus(200))
			Expect(Body[contract.UserResponse](res).Role).To(Equal(contract.UserResponseRoleModerator))
			Expect(target.Client(h).Get(fmt.Sprintf("/api/v1/access/%d/grants", admin.ID))).To(HaveStatus(200))

			Expect(admin.Client(h).Put(rolePath(target.ID), map[string]any{"role": "admin"})).To(HaveStatus(200))
			Expect(target.Client(h).Get("/api/v1/admin/users")).To(HaveStatus(200))
			Expect(admin.Client(h).Put(rolePath(target.ID), map[string]any{"role": "user"})).To(HaveStatus(200))
			Expect(target.Client(h).Get("/api/v1/admin/users")).To(HaveError(403, "forbidden"))
		})

		It("refuses your own role with 400", func() {
			admin := h.NewUser(auth.RoleAdmin)
			Expect(admin.Client(h).Put(rolePath(admin.ID), map[string]any{"role": "user"})).To(HaveError(400, "bad_request"))
			Expect(me(h, admin.Token).Role).To(Equal(contract.UserResponseRoleAdmin))
		})

		It("refuses an unknown user and an unknown role", func() {
			admin, target := h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleUser)
			Expect(admin.Client(h).Put(rolePath(999_999_999), map[string]any{"role": "user"})).To(HaveError(404, "not_found"))
			Expect(admin.Client(h).Put(rolePath(target.ID), map[string]any{"role": "owner"})).To(HaveError(422, "invalid_request"))
			Expect(admin.Client(h).Put(rolePath(target.ID), map[string]any{})).To(HaveError(422, "invalid_request"))
			Expect(admin.Client(h).Put("/api/v1/admin/users/abc/role", map[string]any{"role": "user"})).To(HaveError(422, "invalid_request"))
			Expect(me(h, target.Token).Role).To(Equal(contract.UserResponseRoleUser))
		})
	})

	Describe("changing a role as a moderator", func() {
		It("makes someone a moderator or a learner", func() {
			mod, target := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
			Expect(mod.Client(h).Put(accessPath(target.ID), map[string]any{"role": "moderator"})).To(HaveStatus(200))
			Expect(me(h, target.Token).Role).To(Equal(contract.UserResponseRoleModerator))
			Expect(mod.Client(h).Put(accessPath(target.ID), map[string]any{"role": "user"})).To(HaveStatus(200))
			Expect(me(h, target.Token).Role).To(Equal(contract.UserResponseRoleUser))
		})

		It("accepts only user or moderator", func() {
			mod, target := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
			Expect(mod.Client(h).Put(accessPath(target.ID), map[string]any{"role": "admin"})).To(HaveError(422, "invalid_request"))
			admin := h.NewUser(auth.RoleAdmin)
			Expect(admin.Client(h).Put(accessPath(target.ID), map[string]any{"role": "admin"})).To(HaveError(422, "invalid_request"))
			Expect(me(h, target.Token).Role).To(Equal(contract.UserResponseRoleUser))
		})

		It("refuses a moderator touching an administrator, but not an administrator", func() {
			mod, admin, other := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleAdmin)
			Expect(mod.Client(h).Put(accessPath(admin.ID), map[string]any{"role": "user"})).To(HaveError(403, "forbidden"))
			Expect(me(h, admin.Token).Role).To(Equal(contract.UserResponseRoleAdmin))
			Expect(other.Client(h).Put(accessPath(admin.ID), map[string]any{"role": "moderator"})).To(HaveStatus(200))
			Expect(me(h, admin.Token).Role).To(Equal(contract.UserResponseRoleModerator))
		})

		It("refuses bad input and changes nothing", func() {
			mod, target := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
			c := mod.Client(h)
			Expect(c.Put(accessPath(target.ID), map[string]any{})).To(HaveError(422, "invalid_request"))
			Expect(c.Put(accessPath(target.ID), map[string]any{"role": "moderator", "grants": []any{}})).To(HaveError(422, "invalid_request"))
			Expect(c.Put(accessPath(target.ID), map[string]any{"role": 1})).To(HaveError(422, "invalid_request"))
			Expect(c.Put("/api/v1/access/abc/role", map[string]any{"role": "moderator"})).To(HaveError(422, "invalid_request"))
			Expect(c.Put("/api/v1/access/0/role", map[string]any{"role": "moderator"})).To(HaveError(422, "invalid_request"))
			Expect(me(h, target.Token).Role).To(Equal(contract.UserResponseRoleUser))
		})

		It("refuses learners, your own role and unknown users", func() {
			learner, mod := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleModerator)
			Expect(learner.Client(h).Put(accessPath(mod.ID), map[string]any{"role": "user"})).To(HaveError(403, "forbidden"))
			Expect(learner.Client(h).Put(accessPath(learner.ID), map[string]any{"role": "moderator"})).To(HaveError(403, "forbidden"))
			Expect(mod.Client(h).Put(accessPath(mod.ID), map[string]any{"role": "user"})).To(HaveError(400, "bad_request"))
			Expect(mod.Client(h).Put(accessPath(999_999_999), map[string]any{"role": "user"})).To(HaveError(404, "not_found"))
			Expect(me(h, mod.Token).Role).To(Equal(contract.UserResponseRoleModerator))
			Expect(me(h, learner.Token).Role).To(Equal(contract.UserResponseRoleUser))
		})
	})

	It("exempts someone from rate limits, or not", func() {
		admin, target := h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleUser)
		c := admin.Client(h)
		res := c.Put(userPath(target.ID)+"/unthrottle", map[string]any{"unthrottled": true})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.UserResponse](res).Unthrottled).To(BeTrue())
		Expect(me(h, target.Token).Unthrottled).To(BeTrue())
		res = c.Put(userPath(target.ID)+"/unthrottle", map[string]any{"unthrottled": false})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.UserResponse](res).Unthrottled).To(BeFalse())
		Expect(c.Put(userPath(target.ID)+"/unthrottle", map[string]any{})).To(HaveError(422, "invalid_request"))
		Expect(c.Put(userPath(target.ID)+"/unthrottle", map[string]any{"unthrottled": "yes"})).To(HaveError(422, "invalid_request"))
		Expect(c.Put(userPath(999_999_999)+"/unthrottle", map[string]any{"unthrottled": true})).To(HaveError(404, "not_found"))
		Expect(me(h, target.Token).Unthrottled).To(BeFalse())
	})

	Describe("deleting an account", func() {
		It("removes it with its sessions and grants and tells the other modules", func() {
			admin, mod := h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleModerator)
			tok := h.SignIn(idp, person("leaving"), true, "phone")
			id := me(h, tok.AccessToken).Id
			Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/access/%d/grants", id),
				map[string]any{"kind": "quiz", "target_id": 7})).To(HaveStatus(201))

			Expect(admin.Client(h).Delete(userPath(id))).To(HaveStatus(204))
			Expect(tok.Client(h).Get("/api/v1/auth/me")).To(HaveError(401, "unauthenticated"))
			Expect(refresh(h, tok.RefreshToken)).To(HaveError(401, "unauthenticated"))
			grants, err := app.Lookup[*identity.Module](h.App).Grants(ctxBG, id)
			Expect(err).NotTo(HaveOccurred())
			Expect(grants).To(BeEmpty())
			Eventually(func() bool { return deleted.has(id) }).WithTimeout(10 * time.Second).Should(BeTrue())
			Expect(admin.Client(h).Delete(userPath(id))).To(HaveError(404, "not_found"))
		})

		It("refuses deleting yourself with 400", func() {
			admin := h.NewUser(auth.RoleAdmin)
			Expect(admin.Client(h).Delete(userPath(admin.ID))).To(HaveError(400, "bad_request"))
			Expect(me(h, admin.Token).Role).To(Equal(contract.UserResponseRoleAdmin))
			Expect(admin.Client(h).Delete("/api/v1/admin/users/0")).To(HaveError(422, "invalid_request"))
		})
	})
})
