package identity_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Your account", func() {
	It("answers GET /auth/me with the account", func() {
		u := h.NewUser(auth.RoleModerator)
		m := me(h, u.Token)
		Expect(m.Id).To(Equal(u.ID))
		Expect(m.Email).To(Equal(u.Email))
		Expect(m.Role).To(Equal(contract.UserResponseRoleModerator))
		Expect(m.IsModerator).To(BeTrue())
		Expect(m.IsAdmin).To(BeFalse())
		Expect(m.Name).NotTo(BeEmpty())
		Expect(m.CreatedAt).NotTo(BeZero())
		Expect(h.Anon().Get("/api/v1/auth/me")).To(HaveError(401, "unauthenticated"))
	})

	It("changes the name, and only the name", func() {
		u := h.NewUser(auth.RoleUser)
		c := u.Client(h)
		res := c.Put("/api/v1/auth/me", map[string]any{"name": "  Ada Lovelace  "})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.UserResponse](res).Name).To(Equal("Ada Lovelace"))

		Expect(c.Put("/api/v1/auth/me", map[string]any{"name": "X", "role": "admin"})).To(HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/auth/me", map[string]any{"name": "X", "email": "x@y.z"})).To(HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/auth/me", map[string]any{"name": "X", "password": "secret"})).To(HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/auth/me", map[string]any{"name": ""})).To(HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/auth/me", map[string]any{"name": "   "})).To(HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/auth/me", map[string]any{"name": strings.Repeat("n", 201)})).To(HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/auth/me", map[string]any{})).To(HaveError(422, "invalid_request"))
		m := me(h, u.Token)
		Expect(m.Name).To(Equal("Ada Lovelace"))
		Expect(m.Role).To(Equal(contract.UserResponseRoleUser))
		Expect(m.Email).To(Equal(u.Email))
	})

	Describe("settings", func() {
		It("stores any JSON object and returns it", func() {
			u := h.NewUser(auth.RoleUser)
			c := u.Client(h)
			Expect(c.Get("/api/v1/auth/me/settings").Body).To(MatchJSON(`{"reminders_disabled": false}`))
			body := map[string]any{"theme": "dark", "font": map[string]any{"size": 14.0}, "recent": []any{"a", "b"}}
			res := c.Put("/api/v1/auth/me/settings", body)
			Expect(res).To(HaveStatus(200))
			Expect(res.Body).To(MatchJSON(`{"saved": true}`))
			Expect(c.Get("/api/v1/auth/me/settings").Body).To(MatchJSON(
				`{"theme": "dark", "font": {"size": 14}, "recent": ["a", "b"], "reminders_disabled": false}`))
		})

		It("keeps reminders_disabled in its durable column, which wins", func() {
			u := h.NewUser(auth.RoleUser)
			c := u.Client(h)
			Expect(c.Put("/api/v1/auth/me/settings", map[string]any{"reminders_disabled": true, "theme": "light"})).To(HaveStatus(200))
			info, err := app.Lookup[*identity.Module](h.App).User(ctxBG, u.ID)
			Expect(err).NotTo(HaveOccurred())
			Expect(info.RemindersDisabled).To(BeTrue())

			// Other keys replace the object; the durable flag stays when absent.
			Expect(c.Put("/api/v1/auth/me/settings", map[string]any{"theme": "dark"})).To(HaveStatus(200))
			Expect(c.Get("/api/v1/auth/me/settings").Body).To(MatchJSON(`{"theme": "dark", "reminders_disabled": true}`))

			// A stray copy among the other keys never wins over the column.
			Expect(h.App.DB.Conn(ctxBG).Exec(`UPDATE identity.users SET settings = '{"reminders_disabled": false}' WHERE id = ?`, u.ID).Error).
				To(Succeed())
			Expect(c.Get("/api/v1/auth/me/settings").Body).To(MatchJSON(`{"reminders_disabled": true}`))

			Expect(c.Put("/api/v1/auth/me/settings", map[string]any{"reminders_disabled": false})).To(HaveStatus(200))
			info, _ = app.Lookup[*identity.Module](h.App).User(ctxBG, u.ID)
			Expect(info.RemindersDisabled).To(BeFalse())
		})

		It("refuses what is not an object, or a non-boolean reminders_disabled, and changes nothing", func() {
			u := h.NewUser(auth.RoleUser)
			c := u.Client(h)
			Expect(c.Put("/api/v1/auth/me/settings", map[string]any{"theme": "keep"})).To(HaveStatus(200))
			Expect(c.Put("/api/v1/auth/me/settings", []any{1, 2})).To(HaveError(422, "invalid_request"))
			Expect(c.Put("/api/v1/auth/me/settings", "\"text\"")).To(HaveError(422, "invalid_request"))
			Expect(c.Put("/api/v1/auth/me/settings", "{broken")).To(HaveError(422, "invalid_request"))
			res := c.Put("/api/v1/auth/me/settings", map[string]any{"reminders_disabled": "yes", "theme": "lost"})
			Expect(res).To(HaveError(422, "invalid_request"))
			Expect(res.Body).To(ContainSubstring("reminders_disabled"))
			Expect(c.Put("/api/v1/auth/me/settings", map[string]any{"blob": strings.Repeat("x", 70_000)})).
				To(HaveError(413, "too_large"))
			Expect(c.Get("/api/v1/auth/me/settings").Body).To(MatchJSON(`{"theme": "keep", "reminders_disabled": false}`))
		})
	})
})

var _ = Describe("Closed password routes", func() {
	It("answers POST /auth/login with 410 always", func() {
		for _, body := range []any{nil, map[string]any{"email": "a@b.c", "password": "x"}} {
			res := h.Anon().Post("/api/v1/auth/login", body)
			Expect(res).To(HaveError(410, "not_found"))
			Expect(detail(res)).To(ContainSubstring("single sign-on"))
		}
		Expect(h.Anon().Post("/api/auth/login", nil)).To(HaveError(410, "not_found"))
	})

	It("answers POST /auth/reset-password with 404", func() {
		Expect(h.Anon().Post("/api/v1/auth/reset-password", map[string]any{"token": "t", "password": "p"})).
			To(HaveError(404, "not_found"))
	})

	It("answers the older listing's register, verify and forgot routes with 410", func() {
		Expect(h.Anon().Post("/api/v1/auth/register", map[string]any{"email": "a@b.c"})).To(HaveError(410, "not_found"))
		Expect(h.Anon().Get("/api/v1/auth/verify-email?token=abc")).To(HaveError(410, "not_found"))
		Expect(h.Anon().Post("/api/v1/auth/resend-verification", nil)).To(HaveError(410, "not_found"))
		Expect(h.Anon().Post("/api/v1/auth/forgot-password", map[string]any{"email": "a@b.c"})).To(HaveError(410, "not_found"))
	})
})
