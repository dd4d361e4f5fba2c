package identity_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
)

func grantsPath(id int64) string { return fmt.Sprintf("/api/v1/access/%d/grants", id) }

// grantList reads a listing of grants.
func grantList(res *Response) []contract.GrantResponse {
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[[]contract.GrantResponse](res)
}

var _ = Describe("Editorial grants", func() {
	It("are given by a moderator, listed, seen by the holder and by other modules, and revoked", func() {
		mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
		c := mod.Client(h)
		res := c.Post(grantsPath(learner.ID), map[string]any{"kind": "category", "target_id": 12})
		Expect(res).To(HaveStatus(201))
		g := Body[contract.GrantResponse](res)
		Expect(g.Kind).To(Equal(contract.GrantResponseKindCategory))
		Expect(g.TargetId).To(Equal(int64(12)))
		Expect(g.UserId).To(Equal(learner.ID))
		Expect(g.GrantedBy).To(Equal(mod.ID))
		Expect(g.CreatedAt).NotTo(BeZero())
		Expect(g.Scope).To(BeNil())
		Expect(string(res.Body)).NotTo(ContainSubstring(`"scope"`), "scope is for deck grants only")
		deck := c.Post(grantsPath(learner.ID), map[string]any{"kind": "deck", "target_id": 3, "scope": "category"})
		Expect(deck).To(HaveStatus(201))
		Expect(c.Post(grantsPath(learner.ID), map[string]any{"kind": "deck", "target_id": 3, "scope": "deck"})).To(HaveStatus(201))
		Expect(c.Post(grantsPath(learner.ID), map[string]any{"kind": "quiz", "target_id": 5})).To(HaveStatus(201))
		Expect(c.Post(grantsPath(learner.ID), map[string]any{"kind": "article", "target_id": 9})).To(HaveStatus(201))

		Expect(grantList(c.Get(grantsPath(learner.ID)))).To(HaveLen(5))
		Expect(grantList(learner.Client(h).Get("/api/v1/auth/me/grants"))).To(HaveLen(5))

		facade, err := app.Lookup[*identity.Module](h.App).Grants(ctxBG, learner.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(facade).To(HaveLen(5))
		Expect(facade[0].Kind).To(Equal(identity.GrantCategory))
		Expect(facade[0].TargetID).To(Equal(int64(12)))
		Expect(facade[1].Kind).To(Equal(identity.GrantDeck))
		Expect(facade[1].Scope).To(Equal(identity.ScopeCategory))
		Expect(facade[3].Kind).To(Equal(identity.GrantQuiz))
		Expect(facade[4].Kind).To(Equal(identity.GrantArticle))

		id := g.Id
		Expect(c.Delete(fmt.Sprintf("%s/%d", grantsPath(learner.ID), id))).To(HaveStatus(204))
		Expect(grantList(c.Get(grantsPath(learner.ID)))).To(HaveLen(4))
		Expect(c.Delete(fmt.Sprintf("%s/%d", grantsPath(learner.ID), id))).To(HaveError(404, "not_found"))
	})

	It("are never self-assigned", func() {
		mod := h.NewUser(auth.RoleModerator)
		Expect(mod.Client(h).Post(grantsPath(mod.ID), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveError(400, "bad_request"))
		Expect(grantList(mod.Client(h).Get(grantsPath(mod.ID)))).To(BeEmpty())
	})

	It("are for learners: moderators and administrators already edit everything", func() {
		mod, other, admin := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleAdmin)
		Expect(mod.Client(h).Post(grantsPath(other.ID), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Post(grantsPath(admin.ID), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveError(400, "bad_request"))
	})

	It("refuses a duplicate with 409", func() {
		mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
		body := map[string]any{"kind": "deck", "target_id": 4, "scope": "deck"}
		Expect(mod.Client(h).Post(grantsPath(learner.ID), body)).To(HaveStatus(201))
		Expect(h.NewUser(auth.RoleModerator).Client(h).Post(grantsPath(learner.ID), body)).To(HaveError(409, "conflict"))
		Expect(grantList(mod.Client(h).Get(grantsPath(learner.ID)))).To(HaveLen(1))
	})

	It("refuses bad input and creates nothing", func() {
		mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
		c := mod.Client(h)
		for _, body := range []map[string]any{
			{"kind": "deck", "target_id": 1},
			{"kind": "category", "target_id": 1, "scope": "deck"},
			{"kind": "deck", "target_id": 1, "scope": "shelf"},
			{"kind": "publish", "target_id": 1},
			{"kind": "quiz", "target_id": 0},
			{"kind": "quiz"},
			{"kind": "quiz", "target_id": 1, "can_delete": true},
		} {
			Expect(c.Post(grantsPath(learner.ID), body)).To(HaveError(422, "invalid_request"), fmt.Sprint(body))
		}
		Expect(c.Post(grantsPath(999_999_999), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveError(404, "not_found"))
		Expect(c.Get(grantsPath(999_999_999))).To(HaveError(404, "not_found"))
		Expect(grantList(c.Get(grantsPath(learner.ID)))).To(BeEmpty())
	})

	It("never come from a claim", func() {
		claims := person("claimed")
		claims.Extra = map[string]any{"grants": []any{map[string]any{"kind": "category", "target_id": 1}},
			"rounds_grants": "category:1"}
		tok := h.SignIn(idp, claims, false, "")
		Expect(grantList(tok.Client(h).Get("/api/v1/auth/me/grants"))).To(BeEmpty())
	})

	It("refuses a bad grant path and revokes nothing", func() {
		mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
		c := mod.Client(h)
		Expect(c.Post(grantsPath(learner.ID), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveStatus(201))
		Expect(c.Delete(grantsPath(learner.ID) + "/abc")).To(HaveError(422, "invalid_request"))
		Expect(c.Delete(grantsPath(learner.ID) + "/0")).To(HaveError(422, "invalid_request"))
		Expect(c.Delete("/api/v1/access/abc/grants/1")).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/access/0/grants")).To(HaveError(422, "invalid_request"))
		Expect(grantList(c.Get(grantsPath(learner.ID)))).To(HaveLen(1))
	})

	It("are managed by moderators only; an administrator may too", func() {
		learner, holder := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		lc := learner.Client(h)
		Expect(lc.Post(grantsPath(holder.ID), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveError(403, "forbidden"))
		Expect(lc.Post(grantsPath(learner.ID), map[string]any{"kind": "quiz", "target_id": 1})).To(HaveError(403, "forbidden"))
		Expect(lc.Get(grantsPath(holder.ID))).To(HaveError(403, "forbidden"))
		Expect(lc.Delete(grantsPath(holder.ID) + "/1")).To(HaveError(403, "forbidden"))
		Expect(h.Anon().Get(grantsPath(holder.ID))).To(HaveError(401, "unauthenticated"))

		admin := h.NewUser(auth.RoleAdmin)
		res := admin.Client(h).Post(grantsPath(holder.ID), map[string]any{"kind": "article", "target_id": 2})
		Expect(res).To(HaveStatus(201))
		Expect(grantList(admin.Client(h).Get(grantsPath(holder.ID)))).To(HaveLen(1))
		// Revoking through another person's path finds nothing.
		id := Body[contract.GrantResponse](res).Id
		Expect(admin.Client(h).Delete(fmt.Sprintf("%s/%d", grantsPath(learner.ID), id))).To(HaveError(404, "not_found"))
		Expect(admin.Client(h).Delete(fmt.Sprintf("%s/%d", grantsPath(holder.ID), id))).To(HaveStatus(204))
	})
})
