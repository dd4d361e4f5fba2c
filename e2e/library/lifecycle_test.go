package library_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("The bin", func() {
	It("removes a never-published article outright, with nothing to restore", func() {
		a := simple("review")
		id := IDOf(a)
		res := mod.Client(h).Delete(path("/articles/%d", id))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("outcome", "removed"))
		Expect(scalar[int64]("SELECT count(*) FROM library.articles WHERE id = ?", id)).To(BeZero())
		Expect(scalar[int64]("SELECT count(*) FROM library.sections WHERE article_id = ?", id)).To(BeZero())
		Expect(mod.Client(h).Get(path("/articles/%d", id))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post(path("/articles/%d/restore", id), nil)).To(HaveError(404, "not_found"))
		Expect(listIDs(mod.Client(h).Get(api + "/articles/trash?limit=200"))).NotTo(ContainElement(id))
	})

	It("bins a once-published article and restores it in the status it went in with, or purges it", func() {
		a := simple("published")
		id := IDOf(a)
		Expect(mod.Client(h).Put(path("/articles/%d/status", id), q{"status": "archived"})).To(HaveStatus(200))
		learner := h.NewUser(auth.RoleUser)

		res := mod.Client(h).Delete(path("/articles/%d", id))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("outcome", "binned"))
		Expect(scalar[bool]("SELECT deleted_at IS NOT NULL FROM library.articles WHERE id = ?", id)).To(BeTrue())
		Expect(mod.Client(h).Delete(path("/articles/%d", id))).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Patch(path("/articles/%d", id), q{"title": "x"})).To(HaveError(409, "conflict"))
		Expect(learner.Client(h).Get(path("/articles/%d", id))).To(HaveError(404, "not_found"))
		trash := mod.Client(h).Get(api + "/articles/trash?limit=200")
		Expect(listIDs(trash)).To(ContainElement(id))
		Expect(learner.Client(h).Get(api + "/articles/trash")).To(HaveError(403, "forbidden"))

		Expect(learner.Client(h).Post(path("/articles/%d/restore", id), nil)).To(HaveError(403, "forbidden"))
		res = mod.Client(h).Post(path("/articles/%d/restore", id), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("status", "archived"), HaveKeyWithValue("deleted_at", BeNil())))
		Expect(mod.Client(h).Post(path("/articles/%d/restore", id), nil)).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(path("/articles/trash/%d", id))).To(HaveError(400, "bad_request"), "purge only from the bin")

		Expect(mod.Client(h).Delete(path("/articles/%d", id))).To(HaveStatus(200))
		Expect(learner.Client(h).Delete(path("/articles/trash/%d", id))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Delete(path("/articles/trash/%d", id))).To(HaveStatus(204))
		Expect(scalar[int64]("SELECT count(*) FROM library.articles WHERE id = ?", id)).To(BeZero())
		Expect(scalar[int64]("SELECT count(*) FROM library.revisions WHERE article_id = ?", id)).To(BeZero())
		Expect(mod.Client(h).Delete(path("/articles/trash/%d", id))).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Revisions", func() {
	It("lists and shows revisions to editors and restores one after keeping the current state", func() {
		a := write(q{"title": "Asthma", "status": "published", "summary": "First summary",
			"sections": []q{{"id": "triggers", "heading": "Triggers", "markdown": "Dust."}}})
		id := IDOf(a)
		Expect(mod.Client(h).Patch(path("/articles/%d", id), q{"summary": "Second summary", "note": "rewrite",
			"sections": []q{{"id": "triggers", "heading": "Triggers", "markdown": "Pollen."}, {"heading": "Treatment", "markdown": "Inhalers."}}})).
			To(HaveStatus(200))

		revs := mod.Client(h).Get(path("/articles/%d/revisions", id))
		Expect(revs).To(HaveStatus(200))
		Expect(revs.List()).To(HaveLen(1))
		first := revs.List()[0].(map[string]any)
		Expect(first).To(And(HaveKeyWithValue("summary", "First summary"), HaveKeyWithValue("note", "rewrite")))
		rid := int64(first["id"].(float64))
		one := mod.Client(h).Get(path("/articles/%d/revisions/%d", id, rid))
		Expect(one).To(HaveStatus(200))
		Expect(one.Map()).To(And(HaveKeyWithValue("content", "## Triggers\n\nDust."),
			HaveKeyWithValue("sections", ConsistOf(HaveKeyWithValue("markdown", "Dust.")))))
		Expect(mod.Client(h).Get(path("/articles/%d/revisions/%d", id, 987654321))).To(HaveError(404, "not_found"))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get(path("/articles/%d/revisions", id))).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Get(path("/articles/%d/revisions/%d", id, rid))).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Post(path("/articles/%d/revisions/%d/restore", id, rid), nil)).To(HaveError(403, "forbidden"))

		res := mod.Client(h).Post(path("/articles/%d/revisions/%d/restore", id, rid), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("summary", "First summary"), HaveKeyWithValue("status", "published"),
			HaveKeyWithValue("sections", ConsistOf(And(HaveKeyWithValue("id", "triggers"), HaveKeyWithValue("markdown", "Dust."))))))
		Expect(scalar[string]("SELECT string_agg(key, ',') FROM library.sections WHERE article_id = ?", id)).To(Equal("triggers"))
		var latest struct{ Summary, Note string }
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT summary, note FROM library.revisions WHERE article_id = ? ORDER BY id DESC LIMIT 1`, id).
			Scan(&latest).Error).To(Succeed())
		Expect(latest.Note).To(Equal(fmt.Sprintf("before restoring #%d", rid)))
		Expect(latest.Summary).To(Equal("Second summary"), "the state before the restore is kept")
	})
})

var _ = Describe("Slugs", func() {
	It("makes unique slugs, keeps former ones resolving and refuses another article's", func() {
		a := write(q{"title": "Sepsis", "status": "published", "summary": "Infection with organ failure.",
			"sections": []q{{"heading": "Definition", "markdown": "A **dysregulated** host response to infection, with organ dysfunction."}}})
		b := write(q{"title": "Sepsis", "status": "published"})
		Expect(a["slug"]).To(Equal("sepsis"))
		Expect(b["slug"]).To(Equal("sepsis-2"))
		id := IDOf(a)

		res := mod.Client(h).Patch(path("/articles/%d", id), q{"slug": "sepsis-overview", "title": "Sepsis, an overview"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("slug", "sepsis-overview"))
		learner := h.NewUser(auth.RoleUser)
		old := learner.Client(h).Get(api + "/articles/by-slug/sepsis")
		Expect(old).To(HaveStatus(200))
		Expect(old.Map()).To(And(HaveKeyWithValue("id", BeNumerically("==", id)), HaveKeyWithValue("slug", "sepsis-overview"),
			HaveKeyWithValue("former_slugs", ConsistOf("sepsis"))))
		Expect(learner.Client(h).Get(api + "/articles/by-slug/sepsis-overview")).To(HaveStatus(200))
		Expect(learner.Client(h).Get(api + "/articles/by-slug/no-such-slug")).To(HaveError(404, "not_found"))

		Expect(mod.Client(h).Patch(path("/articles/%d", IDOf(b)), q{"slug": "sepsis"})).To(HaveError(409, "conflict"),
			"a former slug stays with its article")
		Expect(mod.Client(h).Post(api+"/articles/", q{"title": "x", "slug": "sepsis-overview"})).To(HaveError(409, "conflict"))
		Expect(write(q{"title": "Sepsis overview"})["slug"]).To(Equal("sepsis-overview-2"))
		Expect(mod.Client(h).Patch(path("/articles/%d", id), q{"slug": "sepsis"})).To(HaveStatus(200), "its own former slug")
		Expect(scalar[string]("SELECT string_agg(slug, ',') FROM library.slug_history WHERE article_id = ?", id)).
			To(Equal("sepsis-overview"))

		card := learner.Client(h).Get(api + "/articles/preview/sepsis-overview")
		Expect(card).To(HaveStatus(200))
		Expect(card.Map()).To(Equal(map[string]any{"id": float64(id), "slug": "sepsis", "title": "Sepsis, an overview",
			"summary": "Infection with organ failure.", "category_id": nil,
			"lead": "A dysregulated host response to infection, with organ dysfunction."}))
		Expect(learner.Client(h).Get(api + "/articles/recent")).To(HaveStatus(200))
		draft := simple("draft")
		Expect(learner.Client(h).Get(path("/articles/preview/%s", draft["slug"]))).To(HaveError(404, "not_found"))
	})
})
