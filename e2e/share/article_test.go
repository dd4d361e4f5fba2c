package share_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// article writes a one-section article in the given status.
func article(title, status string) int64 {
	res := mod.Client(h).Post("/api/v1/articles/", map[string]any{"title": title, "status": status, "summary": "About " + title,
		"sections": []map[string]any{{"heading": "Overview", "markdown": "The **deltoid** is supplied by the axillary nerve."}}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

var _ = Describe("Sharing an article", func() {
	It("opens a published article read-only to anyone holding the token, until it is no longer published", func() {
		a := article("Deltoid innervation", "published")
		ada := h.NewUser(auth.RoleUser)
		res := share(ada, map[string]any{"kind": "article", "target_id": a})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("title", "Deltoid innervation"))
		token := res.Map()["token"].(string)

		seen := open(token)
		Expect(seen).To(HaveStatus(200))
		view := seen.Map()
		Expect(view).To(HaveKeyWithValue("kind", "article"))
		content := view["content"].(map[string]any)
		Expect(content).To(And(HaveKeyWithValue("title", "Deltoid innervation"), HaveKeyWithValue("summary", "About Deltoid innervation")))
		sections := content["sections"].([]any)
		Expect(sections).To(HaveLen(1))
		Expect(sections[0]).To(And(HaveKeyWithValue("heading", "Overview"),
			HaveKeyWithValue("html", ContainSubstring("<strong>deltoid</strong>"))))

		Expect(mod.Client(h).Put(fmt.Sprintf("/api/v1/articles/%d/status", a), map[string]any{"status": "archived"})).To(HaveStatus(200))
		Expect(open(token)).To(HaveError(410, "not_found"))
	})

	It("refuses drafts, articles the sharer cannot read, and answers an article does not have", func() {
		draft := article("Draft on the deltoid", "draft")
		learner := h.NewUser(auth.RoleUser)
		Expect(share(learner, map[string]any{"kind": "article", "target_id": draft})).To(HaveError(404, "not_found"))
		Expect(share(mod, map[string]any{"kind": "article", "target_id": draft})).To(HaveError(409, "conflict"))
		pub := article("Published deltoid", "published")
		Expect(share(learner, map[string]any{"kind": "article", "target_id": pub, "with_answers": true})).
			To(HaveError(422, "invalid_request"))
		var links int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM share.links WHERE kind = 'article' AND target_id IN (?, ?)`, draft, pub).
			Scan(&links).Error).To(Succeed())
		Expect(links).To(BeZero(), "nothing stored for a refused link")
	})
})
