package flashcards_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

// article writes a library article with one section as the moderator.
func article(title string) int64 {
	res := mod.Client(h).Post(api+"/articles/", map[string]any{"title": title,
		"sections": []map[string]any{{"heading": "Overview", "markdown": "Body of " + title + "."}}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.ID()
}

// deckLinks are a deck's article links as an answer lists them.
func deckLinks(res *Response) []deckArticleRow {
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var out []deckArticleRow
	for _, l := range Body[[]contract.DeckArticleResponse](res) {
		ExpectWithOffset(1, l.CreatedAt).NotTo(BeZero())
		out = append(out, deckArticleRow{l.ArticleId, l.IsSource})
	}
	return out
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
		res := addCard(mod, d, cardBody{CardType: "basic", Front: "GFR?", Back: new("125 ml/min")})
		Expect(res).To(HaveStatus(201))
		card := cardIDs(res)[0]
		kidney, nephron, tubule := article("Kidney"), article("Nephron"), article("Tubule")

		By("linking a card to an article links its deck, the first link as source")
		res = mod.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/article", api, card),
			contract.PutFlashcardsCardsByCardIdArticleRequest{ArticleId: kidney})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.FlashcardResponse](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(card),
			"ArticleId": HaveValue(Equal(kidney)), "SectionId": BeNil()}))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, true}}))

		By("a further link is not the source until asked, and then the flag moves")
		Expect(mod.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d", nephron)), nil)).To(HaveStatus(200))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, true}, {nephron, false}}))
		// The answer lists the links, the source first.
		Expect(deckLinks(mod.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d?source=true", tubule)), nil))).
			To(Equal([]deckArticleRow{{tubule, true}, {kidney, false}, {nephron, false}}))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, false}, {nephron, false}, {tubule, true}}))
		Expect(mod.Client(h).Put(deckPath(d, fmt.Sprintf("/articles/%d", tubule)), nil)).To(HaveStatus(200), "again: no change")
		Expect(storedDeckArticles(d)).To(ContainElement(deckArticleRow{tubule, true}))

		By("unlinking the source passes the flag to the oldest link left")
		Expect(mod.Client(h).Delete(deckPath(d, fmt.Sprintf("/articles/%d", tubule)))).To(HaveStatus(200))
		Expect(storedDeckArticles(d)).To(Equal([]deckArticleRow{{kidney, true}, {nephron, false}}))
		Expect(mod.Client(h).Delete(deckPath(d, fmt.Sprintf("/articles/%d", tubule)))).To(HaveError(404, "not_found"))

		By("learners read the links of a deck they may study; only moderators change them")
		learner := h.NewUser(auth.RoleUser)
		Expect(deckLinks(learner.Client(h).Get(deckPath(d, "/articles")))).To(Equal([]deckArticleRow{{kidney, true}, {nephron, false}}))
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
