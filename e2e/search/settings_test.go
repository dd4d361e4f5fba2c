package search_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// setRerankModel writes the setting and, after the test, restores blank
// and puts the stand-in back to normal.
func setRerankModel(h *harness.Harness, model string) {
	admin := newUser(h, auth.RoleAdmin)
	Expect(admin.Client(h).Put("/api/v1/admin/settings", map[string]any{"rerank_model": model})).To(HaveStatusOK())
	resetProxy()
	DeferCleanup(func() {
		Expect(admin.Client(h).Put("/api/v1/admin/settings", map[string]any{"rerank_model": ""})).To(HaveStatusOK())
	})
}

var _ = Describe("Admin settings", func() {
	It("shows the embedding model in use and a blank rerank model by default", func() {
		admin := newUser(local, auth.RoleAdmin)
		res := admin.Client(local).Get("/api/v1/admin/settings")
		Expect(res).To(HaveStatusOK())
		Expect(res.Map()).To(HaveKeyWithValue("embedding_model", "local-lexical-v1"))
		Expect(res.Map()).To(HaveKeyWithValue("rerank_model", ""))

		res = newUser(remote, auth.RoleAdmin).Client(remote).Get("/api/v1/admin/settings")
		Expect(res).To(HaveStatusOK())
		Expect(res.Map()).To(HaveKeyWithValue("embedding_model", "standin-embedding"))
	})

	It("stores the rerank model as written, blank and spaces included", func() {
		admin := newUser(local, auth.RoleAdmin)
		c := admin.Client(local)
		setRerankModel(local, "  cohere/rerank-v3.5 ")
		Expect(c.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("rerank_model", "  cohere/rerank-v3.5 "))
		res := c.Put("/api/v1/admin/settings", map[string]any{"rerank_model": "   "})
		Expect(res).To(HaveStatusOK())
		Expect(res.Map()).To(HaveKeyWithValue("rerank_model", "   "))
		Expect(c.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("rerank_model", "   "))
	})

	It("refuses to change the embedding model, pointing to re-embedding", func() {
		c := newUser(remote, auth.RoleAdmin).Client(remote)
		res := c.Put("/api/v1/admin/settings", map[string]any{"embedding_model": "text-embedding-3-large"})
		Expect(res).To(harness.HaveError(400, "bad_request"))
		Expect(string(res.Body)).To(ContainSubstring("embedding_model cannot be changed"))
		Expect(string(res.Body)).To(ContainSubstring("re-embedding is the way"))
		Expect(string(res.Body)).To(ContainSubstring("POST /admin/embedding/regenerate"))
		// Nothing of a refused request is written.
		res = c.Put("/api/v1/admin/settings", map[string]any{"embedding_model": "other", "rerank_model": "x"})
		Expect(res).To(harness.HaveError(400, "bad_request"))
		Expect(c.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("rerank_model", ""))
		Expect(c.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("embedding_model", "standin-embedding"))

		// A client that round-trips GET into PUT is not refused.
		all := c.Get("/api/v1/admin/settings").Map()
		Expect(c.Put("/api/v1/admin/settings", all)).To(HaveStatusOK())
	})

	It("refuses to set the embedding model never stored: the built-in one is in force", func() {
		c := newUser(local, auth.RoleAdmin).Client(local)
		rerank := c.Get("/api/v1/admin/settings").Map()["rerank_model"]
		res := c.Put("/api/v1/admin/settings", map[string]any{"embedding_model": "text-embedding-3-large", "rerank_model": "x"})
		Expect(res).To(harness.HaveError(400, "bad_request"))
		Expect(string(res.Body)).To(ContainSubstring("POST /admin/embedding/regenerate"))
		all := c.Get("/api/v1/admin/settings").Map()
		Expect(all).To(HaveKeyWithValue("embedding_model", "local-lexical-v1"))
		Expect(all).To(HaveKeyWithValue("rerank_model", rerank), "nothing of the refused request is written")
		var stored int
		Expect(local.App.DB.Conn(context.Background()).
			Raw(`SELECT count(*) FROM platform.settings WHERE key = 'embedding_model'`).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(BeZero())
	})

	It("reads the built-in model, and a round-tripped GET does not store it", func() {
		c := newUser(local, auth.RoleAdmin).Client(local)
		all := c.Get("/api/v1/admin/settings").Map()
		Expect(all).To(HaveKeyWithValue("embedding_model", "local-lexical-v1"))
		Expect(c.Put("/api/v1/admin/settings", all)).To(HaveStatusOK())
		var stored int
		Expect(local.App.DB.Conn(context.Background()).
			Raw(`SELECT count(*) FROM platform.settings WHERE key = 'embedding_model'`).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(BeZero(), "the round trip writes nothing")
		for _, bad := range []any{"", " padded ", 42, nil} {
			Expect(c.Put("/api/v1/admin/settings", map[string]any{"embedding_model": bad})).
				To(harness.HaveError(422, "invalid_request"), "%v", bad)
		}
	})

	It("describes the embedding model as locked, set or not, saying how it changes (only its owner's route writes it)", func() {
		locked := func(h *harness.Harness) string {
			res := newUser(h, auth.RoleAdmin).Client(h).Get("/api/v1/admin/settings/schema")
			ExpectWithOffset(1, res).To(HaveStatusOK())
			var schema []struct{ Key, Label, Kind, Locked string }
			res.JSON(&schema)
			for _, d := range schema {
				if d.Key == "embedding_model" {
					ExpectWithOffset(1, [2]string{d.Label, d.Kind}).To(Equal([2]string{"Embedding model", "text"}))
					return d.Locked
				}
			}
			Fail("embedding_model is not described")
			return ""
		}
		Expect(locked(remote)).To(ContainSubstring("re-embedding is the way"), "set in the remote harness")
		Expect(locked(local)).To(ContainSubstring("re-embedding is the way"), "never written: still not the settings form's to change")
	})

	It("refuses unknown keys and values of the wrong type with 422 naming the field", func() {
		admin := newUser(local, auth.RoleAdmin)
		c := admin.Client(local)
		res := c.Put("/api/v1/admin/settings", map[string]any{"colour": "blue"})
		Expect(res).To(harness.HaveError(422, "invalid_request"))
		Expect(string(res.Body)).To(ContainSubstring("body.colour"))
		res = c.Put("/api/v1/admin/settings", map[string]any{"rerank_model": 42})
		Expect(res).To(harness.HaveError(422, "invalid_request"))
		Expect(string(res.Body)).To(ContainSubstring("body.rerank_model"))
		long := make([]byte, 201)
		for i := range long {
			long[i] = 'm'
		}
		Expect(c.Put("/api/v1/admin/settings", map[string]any{"rerank_model": string(long)})).
			To(harness.HaveError(422, "invalid_request"))
		Expect(c.Put("/api/v1/admin/settings", map[string]any{"rerank_model": nil})).
			To(harness.HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("rerank_model", ""))
	})

	It("is for admins only", func() {
		for _, role := range []auth.Role{auth.RoleUser, auth.RoleModerator} {
			c := newUser(local, role).Client(local)
			Expect(c.Get("/api/v1/admin/settings")).To(harness.HaveError(403, "forbidden"))
			Expect(c.Put("/api/v1/admin/settings", map[string]any{"rerank_model": "x"})).To(harness.HaveError(403, "forbidden"))
		}
		Expect(local.Anon().Get("/api/v1/admin/settings")).To(harness.HaveError(401, "unauthenticated"))
	})
})
