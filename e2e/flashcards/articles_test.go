package flashcards_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// article writes a library article with one section as the moderator.
func article(title string) int64 {
	res := mod.Client(h).Post(api+"/articles/", map[string]any{"title": title,
		"sections": []map[string]any{{"heading": "Overview", "markdown": "Body of " + title + "."}}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.ID()
}

type deckArticleRow struct {
	ArticleID int64
	IsSource  bool
}

func storedDeckArticles(d int64) []deckArticleRow {
	var rows []deckArticleRow
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT article_id, is_source FROM flashcards.deck_articles
		WHERE deck_id = ? ORDER BY article_id`, d).Scan(&rows).Error).To(Succeed())
	return rows
}

var _ = Describe("Deck and article links", func() {
	It("keep exactly one source among the articles a deck's cards came from", func() {
		d := deck(mod, "Renal", category(0))
		Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		res := addCard(mod, d, map[string]any{"card_type": "basic", "front": "GFR?", "back": "125 ml/min"})
		Expect(res).To(HaveStatus(201))
		card := cardIDs(res)[0]
		kidney, nephron, tubule := article("Kidney"), article("Nephron"), article("Tubule")
		links := func(u *User) []any {
			res := u.Client(h).Get(deckPath(d, "/articles"))
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return res.List()
		}

		By("linking a card to an article links its deck, the first link as source")
		Expect(mod.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/article", api, card), map[string]any{"article_id": kidney})).
			To(HaveStatus(200))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, true}}))

		By("a further link is not the source until asked, and then the flag moves")
		Expect(mod.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d", nephron)), nil)).To(HaveStatus(200))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, true}, {nephron, false}}))
		res = mod.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d?source=true", tubule)), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.List()[0]).To(And(HaveKeyWithValue("article_id", BeNumerically("==", tubule)), HaveKeyWithValue("is_source", true)))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, false}, {nephron, false}, {tubule, true}}))
		Expect(mod.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d", tubule)), nil)).To(HaveStatus(200), "again: no change")
		Expect(storedDeckArticles(d)).To(ContainElement(deckArticleRow{tubule, true}))

		By("unlinking the source passes the flag to the oldest link left")
		Expect(mod.Client(h).Delete(deckPath(d, fmt.Sprintf("/articles/%d", tubule)))).To(HaveStatus(200))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, true}, {nephron, false}}))
		Expect(mod.Client(h).Delete(deckPath(d, fmt.Sprintf("/articles/%d", tubule)))).To(HaveError(404, "not_found"))

		By("learners read the links of a deck they may study; only moderators change them")
		learner := h.NewUser(auth.RoleUser)
		Expect(links(learner)).To(HaveExactElements(
			And(HaveKeyWithValue("article_id", BeNumerically("==", kidney)), HaveKeyWithValue("is_source", true)),
			HaveKeyWithValue("is_source", false)))
		Expect(learner.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d", nephron)), nil)).To(HaveError(403, "forbidden"))
		holder := h.NewUser(auth.RoleUser)
		grant(holder, "deck", d)
		Expect(holder.Client(h).Delete(deckPath(d, fmt.Sprintf("/articles/%d", kidney)))).To(HaveError(403, "forbidden"),
			"a deck grant does not reach links")
		Expect(mod.Client(h).Put(deckPath(d, "/articles/987654321"), nil)).To(HaveError(422, "invalid_request"))
		Expect(storedDeckArticles(d)).To(HaveLen(2))

		hidden := deck(mod, "Hidden", category(0))
		Expect(learner.Client(h).Get(deckPath(hidden, "/articles"))).To(HaveError(404, "not_found"))
	})
})
