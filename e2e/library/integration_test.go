package library_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("The library elsewhere", func() {
	It("counts published articles on the landing page", func() {
		count := func() float64 { return h.Anon().Get(api + "/public/stats").Map()["articles"].(float64) }
		before := count()
		simple("draft")
		a := simple("published")
		Expect(count()).To(Equal(before+1), "drafts are not counted")
		Expect(mod.Client(h).Delete(path("/articles/%d", IDOf(a)))).To(HaveStatus(200))
		Expect(count()).To(Equal(before), "binned ones neither")
	})

	It("lets learners report an article they can read", func() {
		learner := h.NewUser(auth.RoleUser)
		a, draft := simple("published"), simple("draft")
		res := learner.Client(h).Post(api+"/feedback", q{"kind": "article", "target_id": IDOf(a), "type": "typo", "text": "Typo in the overview."})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("title", a["title"]))
		Expect(learner.Client(h).Post(api+"/feedback", q{"kind": "article", "target_id": IDOf(draft), "type": "typo", "text": "x"})).
			To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Search reach", func() {
	It("tells search which sections a caller may find and edit", func() {
		pub, draft := simple("published"), simple("draft")
		secOf := func(a map[string]any) int64 {
			return scalar[int64]("SELECT id FROM library.sections WHERE article_id = ?", IDOf(a))
		}
		ids := []int64{secOf(pub), secOf(draft), 987654321}
		m := app.Lookup[*library.Module](h.App)
		learner := h.NewUser(auth.RoleUser)
		vis, edit, err := m.Reachable(ctxb, principal(learner), search.KindArticle, ids)
		Expect(err).NotTo(HaveOccurred())
		Expect(vis).To(Equal(map[int64]bool{ids[0]: true, ids[1]: false}))
		Expect(edit).To(Equal(map[int64]bool{ids[0]: false, ids[1]: false}))
		vis, edit, err = m.Reachable(ctxb, principal(mod), search.KindArticle, ids)
		Expect(err).NotTo(HaveOccurred())
		Expect(vis).To(Equal(map[int64]bool{ids[0]: true, ids[1]: true}))
		Expect(edit).To(Equal(map[int64]bool{ids[0]: true, ids[1]: true}))
	})
})

func principal(u *User) auth.Principal { return auth.Principal{UserID: u.ID, Role: u.Role} }

var _ = Describe("The library's part of the OpenAPI document", func() {
	It("describes every library operation under the articles or glossary tag", func() {
		var doc struct {
			Paths map[string]map[string]struct {
				Tags []string `json:"tags"`
			} `json:"paths"`
		}
		h.Anon().Get("/api/openapi.json").JSON(&doc)
		want := map[string][]string{
			"/api/v1/articles/":                                     {"get", "post"},
			"/api/v1/articles/ai-sources":                           {"get"},
			"/api/v1/articles/ai-draft":                             {"post"},
			"/api/v1/articles/link-targets":                         {"get"},
			"/api/v1/articles/recent":                               {"get"},
			"/api/v1/articles/by-slug/{slug}":                       {"get"},
			"/api/v1/articles/preview/{slug}":                       {"get"},
			"/api/v1/articles/trash":                                {"get"},
			"/api/v1/articles/trash/{id}":                           {"delete"},
			"/api/v1/articles/jobs/{job_id}":                        {"get"},
			"/api/v1/articles/{id}":                                 {"get", "patch", "delete"},
			"/api/v1/articles/{id}/status":                          {"put"},
			"/api/v1/articles/{id}/restore":                         {"post"},
			"/api/v1/articles/{id}/revisions":                       {"get"},
			"/api/v1/articles/{id}/revisions/{revision_id}":         {"get"},
			"/api/v1/articles/{id}/revisions/{revision_id}/restore": {"post"},
			"/api/v1/articles/{id}/ai-refine":                       {"post"},
			"/api/v1/articles/{id}/ai-cards":                        {"post"},
			"/api/v1/glossary/":                                     {"get", "post"},
			"/api/v1/glossary/{term_id}":                            {"patch", "delete"},
			"/api/v1/glossary/annotate":                             {"post"},
		}
		for p, methods := range want {
			Expect(doc.Paths).To(HaveKey(p))
			for _, m := range methods {
				Expect(doc.Paths[p]).To(HaveKey(m), p)
				Expect(doc.Paths[p][m].Tags).To(ConsistOf(BeElementOf("articles", "glossary")), p)
			}
		}
	})
})
