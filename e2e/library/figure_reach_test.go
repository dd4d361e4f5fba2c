package library_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/fixtures"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Placing an existing asset by id", func() {
	It("places only an asset the caller may already see; any other id is the 404 of one that does not exist, and nothing is stored", func() {
		hidden := fixtures.HiddenAssets(h, mod)
		branch := category("Figure reach", nil)
		holder := grantHolder("category", branch)
		learner := h.NewUser(auth.RoleUser)
		own := fixtures.Article(h, mod, "draft", branch)
		published := fixtures.Article(h, mod, "published", 0)
		place := func(u *User, article, asset int64) *Response {
			return u.Client(h).Post(path("/articles/%d/figures/existing", article), q{"asset_id": asset, "section_id": "findings"})
		}
		stored := func(article int64) []any {
			return []any{
				scalar[string](`SELECT markdown FROM library.sections WHERE article_id = ? AND key = 'findings'`, article),
				scalar[int64](`SELECT count(*) FROM library.revisions WHERE article_id = ?`, article),
				scalar[int64](`SELECT count(*) FROM library.figures WHERE article_id = ?`, article)}
		}

		for who, try := range map[string]struct {
			u       *User
			article int64
		}{"grant holder on their article": {holder, own}, "learner on a published article": {learner, published}} {
			before := stored(try.article)
			var first []byte
			for name, a := range hidden {
				res := place(try.u, try.article, a.ID)
				Expect(res).To(HaveError(404, "not_found"), "%s: %s", who, name)
				if first == nil {
					first = res.Body
				}
				Expect(res.Body).To(MatchJSON(first), "%s: %s answers unlike the others", who, name)
				Expect(try.u.Client(h).Get(a.URL).Status).To(BeElementOf(403, 404), "%s: /uploads of %s", who, name)
			}
			Expect(stored(try.article)).To(Equal(before), who)
		}

		// An asset the holder may already see (a published article's
		// figure) is placed on their article.
		seen := fixtures.Figure(h, mod, published, "intro")
		res := place(holder, own, seen.ID)
		Expect(res).To(HaveStatus(201))
		Expect(stored(own)[0]).To(ContainSubstring(seen.URL))
		// The learner may see it too, but edits no article: the library's 403.
		Expect(place(learner, published, seen.ID)).To(HaveError(403, "forbidden"))
		Expect(fmt.Sprint(stored(own)[2])).To(Equal("1"))
	})
})
