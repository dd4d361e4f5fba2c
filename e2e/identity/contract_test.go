package identity_test

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("The contract", func() {
	It("documents every identity operation once, with its access level", func() {
		var doc struct {
			Paths map[string]map[string]struct {
				Tags       []string              `json:"tags"`
				Security   []map[string][]string `json:"security"`
				Deprecated bool                  `json:"deprecated"`
				Parameters []struct {
					Name string `json:"name"`
					In   string `json:"in"`
				} `json:"parameters"`
			} `json:"paths"`
		}
		res := h.Anon().Get("/api/openapi.json")
		Expect(res).To(HaveStatus(200))
		res.JSON(&doc)
		for _, c := range []struct {
			method, path string
			secured      bool
		}{
			{"get", "/auth/sso/config", false}, {"get", "/auth/sso/login", false}, {"get", "/auth/sso/callback", false},
			{"post", "/auth/sso/exchange", false}, {"get", "/auth/sso/logout", false}, {"post", "/auth/refresh", false},
			{"post", "/auth/logout", true}, {"get", "/auth/sessions", true}, {"delete", "/auth/sessions/{family}", true},
			{"get", "/auth/me", true}, {"put", "/auth/me", true}, {"get", "/auth/me/settings", true},
			{"put", "/auth/me/settings", true}, {"get", "/auth/me/grants", true},
			{"post", "/auth/login", false}, {"post", "/auth/reset-password", false},
			{"get", "/admin/users", true}, {"post", "/admin/users", true}, {"put", "/admin/users/{user_id}/role", true},
			{"put", "/admin/users/{user_id}/unthrottle", true}, {"delete", "/admin/users/{user_id}", true},
			{"put", "/access/{user_id}/role", true}, {"get", "/access/{user_id}/grants", true},
			{"post", "/access/{user_id}/grants", true}, {"delete", "/access/{user_id}/grants/{grant_id}", true},
		} {
			op, ok := doc.Paths["/api/v1"+c.path][c.method]
			Expect(ok).To(BeTrue(), c.method+" "+c.path)
			Expect(op.Tags).To(HaveLen(1))
			Expect(len(op.Security) > 0).To(Equal(c.secured), c.method+" "+c.path)
			for _, p := range op.Parameters {
				Expect(strings.ToLower(p.Name)).NotTo(Equal("cookie"), "cookies are read, not documented as parameters")
			}
		}
		Expect(doc.Paths["/api/v1/auth/login"]["post"].Deprecated).To(BeTrue())
	})

	It("renders identity's operations as valid OpenAPI 3.0", func() {
		res := h.Anon().Get("/api/openapi-3.0.json")
		Expect(res).To(HaveStatus(200))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(res.Body)
		Expect(err).NotTo(HaveOccurred())
		// Other modules' operations are their suites' business.
		for path := range doc.Paths.Map() {
			if !strings.HasPrefix(path, "/api/v1/auth/") && !strings.HasPrefix(path, "/api/v1/admin/users") &&
				!strings.HasPrefix(path, "/api/v1/access/") {
				doc.Paths.Delete(path)
			}
		}
		Expect(doc.Paths.Len()).To(BeNumerically(">=", 25))
		Expect(doc.Validate(loader.Context)).To(Succeed())
	})
})
