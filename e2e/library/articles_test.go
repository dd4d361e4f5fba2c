package library_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Articles", func() {
	It("lets a moderator write an article with ordered sections, references and a slug from the title", func() {
		cat := category("Cardiology articles", nil)
		a := write(q{"title": "  Heart Failure: An Overview ", "summary": "Pump failure.", "category_id": cat,
			"sections": []q{{"heading": "Causes", "markdown": "Ischaemia, *hypertension*."},
				{"heading": "Causes", "markdown": "More causes."}, {"id": "treatment", "heading": "Treatment", "markdown": "Diuretics."}},
			"references": []q{{"citation": "ESC guideline 2021", "url": "https://example.org/esc"}}})
		Expect(a).To(And(HaveKeyWithValue("title", "Heart Failure: An Overview"),
			HaveKeyWithValue("slug", "heart-failure-an-overview"), HaveKeyWithValue("status", "draft"),
			HaveKeyWithValue("category_id", BeNumerically("==", cat)), HaveKeyWithValue("can_edit", true)))
		secs := a["sections"].([]any)
		Expect(secs).To(HaveLen(3))
		Expect(secs[0]).To(And(HaveKeyWithValue("id", "causes"), HaveKeyWithValue("html", ContainSubstring("<em>hypertension</em>"))))
		Expect(secs[1]).To(HaveKeyWithValue("id", "causes-2"))
		Expect(secs[2]).To(HaveKeyWithValue("id", "treatment"))
		id := IDOf(a)
		Expect(scalar[string]("SELECT string_agg(key, ',' ORDER BY position) FROM library.sections WHERE article_id = ?", id)).
			To(Equal("causes,causes-2,treatment"))
		Expect(scalar[string]("SELECT references_json->0->>'citation' FROM library.articles WHERE id = ?", id)).
			To(Equal("ESC guideline 2021"))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get(path("/articles/%d", id))).To(HaveError(404, "not_found"), "a draft is hidden from learners")
		Expect(mod.Client(h).Put(path("/articles/%d/status", id), q{"status": "published"})).To(HaveStatus(200))
		res := learner.Client(h).Get(path("/articles/%d", id))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("can_edit", false))
	})

	It("refuses bad articles by field and stores nothing", func() {
		before := scalar[int64]("SELECT count(*) FROM library.articles")
		for _, body := range []q{
			{"title": "   "},
			{"title": "T", "slug": "Not A Slug"},
			{"title": "T", "status": "archived"},
			{"title": "T", "status": "gone"},
			{"title": "T", "category_id": 987654321},
			{"title": "T\x00"},
			{"title": "T", "sections": []q{{"heading": "A", "markdown": "x\x00y"}}},
			{"title": "T", "sections": []q{{"id": "a", "heading": "A", "markdown": ""}, {"id": "a", "heading": "B", "markdown": ""}}},
			{"title": "T", "sections": []q{{"id": "Bad Id", "heading": "A", "markdown": ""}}},
			{"title": "T", "sections": []q{{"heading": " ", "markdown": ""}}},
			{"title": "T", "references": []q{{"citation": "x", "url": "javascript:alert(1)"}}},
			{"title": "T", "sections": []q{{"heading": "A", "markdown": strings.Repeat("x", 100001)}}},
			{"title": "T", "sections": []q{{"heading": "A", "markdown": strings.Repeat("x", 30001)}}},
			{"title": "T", "sections": []q{{"heading": "A", "markdown": strings.Repeat(">", 100) + " deep"}}},
			{"title": "T", "sections": []q{{"heading": "A", "markdown": strings.Repeat("[a](", 1001)}}},
		} {
			Expect(mod.Client(h).Post(api+"/articles/", body)).To(HaveError(422, "invalid_request"), "%v", body["title"])
		}
		Expect(scalar[int64]("SELECT count(*) FROM library.articles")).To(Equal(before))
	})

	It("moves through every allowed status change and refuses the others", func() {
		a := simple("draft")
		id := IDOf(a)
		move := func(to string) *Response { return mod.Client(h).Put(path("/articles/%d/status", id), q{"status": to}) }
		Expect(move("archived")).To(HaveError(409, "conflict"))
		Expect(move("draft")).To(HaveError(409, "conflict"))
		Expect(move("review")).To(HaveStatus(200))
		Expect(move("archived")).To(HaveError(409, "conflict"))
		Expect(move("draft")).To(HaveStatus(200))
		Expect(move("published")).To(HaveStatus(200))
		Expect(move("draft")).To(HaveError(409, "conflict"))
		Expect(move("review")).To(HaveError(409, "conflict"))
		Expect(move("archived")).To(HaveStatus(200))
		Expect(move("published")).To(HaveStatus(200))
		Expect(move("archived")).To(HaveStatus(200))
		Expect(move("draft")).To(HaveStatus(200))
		Expect(move("review")).To(HaveStatus(200))
		res := move("published")
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("status", "published"), HaveKeyWithValue("ever_published", true)))
		Expect(move("nonsense")).To(HaveError(422, "invalid_request"))
		Expect(scalar[string]("SELECT status FROM library.articles WHERE id = ?", id)).To(Equal("published"))
		Expect(scalar[string]("SELECT note FROM library.revisions WHERE article_id = ? ORDER BY id DESC LIMIT 1", id)).
			To(Equal("status review → published"))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Put(path("/articles/%d/status", id), q{"status": "archived"})).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Put(path("/articles/%d/status", 987654321), q{"status": "review"})).To(HaveError(404, "not_found"))
	})

	It("lets grant holders edit what their grant covers, never create, delete, publish or restore revisions", func() {
		root := category("Grant root", nil)
		child := category("Grant child", &root)
		other := category("Grant elsewhere", nil)
		inBranch := simple("published", q{"category_id": child})
		draftInBranch := simple("draft", q{"category_id": child})
		outside := simple("published", q{"category_id": other})
		outsideDraft := simple("draft", q{"category_id": other})
		holder := grantHolder("category", root)
		c := holder.Client(h)

		res := c.Patch(path("/articles/%d", IDOf(inBranch)), q{"summary": "Edited by a grant holder", "note": "tidy"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("summary", "Edited by a grant holder"))
		Expect(c.Patch(path("/articles/%d", IDOf(draftInBranch)), q{"summary": "x"})).To(HaveStatus(200))
		Expect(c.Get(path("/articles/%d", IDOf(draftInBranch)))).To(HaveStatus(200), "their branch's drafts are theirs to read")
		Expect(c.Patch(path("/articles/%d", IDOf(outside)), q{"summary": "x"})).To(HaveError(403, "forbidden"))
		Expect(c.Patch(path("/articles/%d", IDOf(outsideDraft)), q{"summary": "x"})).To(HaveError(404, "not_found"))
		Expect(c.Patch(path("/articles/%d", IDOf(inBranch)), q{"category_id": other})).To(HaveError(403, "forbidden"),
			"filing out of the branch")
		Expect(c.Patch(path("/articles/%d", IDOf(inBranch)), q{"category_id": root})).To(HaveStatus(200))

		Expect(c.Post(api+"/articles/", q{"title": "Mine"})).To(HaveError(403, "forbidden"))
		Expect(c.Delete(path("/articles/%d", IDOf(inBranch)))).To(HaveError(403, "forbidden"))
		Expect(c.Put(path("/articles/%d/status", IDOf(draftInBranch)), q{"status": "published"})).To(HaveError(403, "forbidden"))
		rev := scalar[int64]("SELECT max(id) FROM library.revisions WHERE article_id = ?", IDOf(inBranch))
		Expect(c.Post(path("/articles/%d/revisions/%d/restore", IDOf(inBranch), rev), nil)).To(HaveError(403, "forbidden"))
		Expect(scalar[string]("SELECT status FROM library.articles WHERE id = ?", IDOf(draftInBranch))).To(Equal("draft"))

		one := simple("draft")
		single := grantHolder("article", IDOf(one))
		Expect(single.Client(h).Patch(path("/articles/%d", IDOf(one)), q{"title": "Renamed by its reviewer"})).To(HaveStatus(200))
		Expect(single.Client(h).Patch(path("/articles/%d", IDOf(inBranch)), q{"title": "x"})).To(HaveError(403, "forbidden"))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Patch(path("/articles/%d", IDOf(inBranch)), q{"title": "x"})).To(HaveError(403, "forbidden"))
		Expect(h.Anon().Get(path("/articles/%d", IDOf(inBranch)))).To(HaveError(401, "unauthenticated"))
	})

	It("keeps a revision before every edit, with a note of at most 200 characters", func() {
		a := simple("published")
		id := IDOf(a)
		before := scalar[int64]("SELECT count(*) FROM library.revisions WHERE article_id = ?", id)
		Expect(mod.Client(h).Patch(path("/articles/%d", id), q{"title": "x", "note": strings.Repeat("n", 201)})).
			To(HaveError(422, "invalid_request"))
		Expect(scalar[int64]("SELECT count(*) FROM library.revisions WHERE article_id = ?", id)).To(Equal(before))
		Expect(mod.Client(h).Patch(path("/articles/%d", id), q{"title": "Retitled", "note": strings.Repeat("é", 200)})).
			To(HaveStatus(200))
		var rev struct {
			Title, Note string
		}
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT title, note FROM library.revisions WHERE article_id = ? ORDER BY id DESC LIMIT 1`, id).
			Scan(&rev).Error).To(Succeed())
		Expect(rev.Title).To(Equal(a["title"]), "the revision is the article as it was")
		Expect(rev.Note).To(Equal(strings.Repeat("é", 200)))
	})
})
