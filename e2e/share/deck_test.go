package share_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// sharedDeck makes a deck with a basic and a cloze card as the moderator,
// shared site-wide when asked; it returns the deck id.
func sharedDeck(title string, shared bool) int64 {
	res := mod.Client(h).Post("/api/v1/question-categories/", map[string]any{"name": "Decks " + title})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	res = mod.Client(h).Post("/api/v1/flashcards/manual", map[string]any{"title": title, "category_id": res.Map()["id"]})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	d := int64(res.Map()["id"].(float64))
	cards := fmt.Sprintf("/api/v1/flashcards/decks/%d/cards", d)
	ExpectWithOffset(1, mod.Client(h).Post(cards, map[string]any{"card_type": "basic", "front": "Deltoid nerve?", "back": "Axillary"})).
		To(HaveStatus(201))
	ExpectWithOffset(1, mod.Client(h).Post(cards, map[string]any{"card_type": "cloze",
		"front": "The {{c1::radial}} nerve wraps the {{c2::humerus::bone}}"})).To(HaveStatus(201))
	if shared {
		ExpectWithOffset(1, mod.Client(h).Put(fmt.Sprintf("/api/v1/flashcards/%d/share", d), nil)).To(HaveStatus(200))
	}
	return d
}

var _ = Describe("Share links to decks", func() {
	It("show a shared deck's cards, both sides, to an anonymous visitor", func() {
		d := sharedDeck("Upper limb", true)
		ada := h.NewUser(auth.RoleUser)
		res := share(ada, map[string]any{"kind": "deck", "target_id": d})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(And(HaveKeyWithValue("title", "Upper limb"), HaveKeyWithValue("kind", "deck")))
		Expect(stored(res.Map()["id"].(float64)).CreatedBy).To(Equal(ada.ID))

		seen := open(res.Map()["token"].(string))
		Expect(seen).To(HaveStatus(200))
		content := seen.Map()["content"].(map[string]any)
		Expect(content).To(And(HaveKeyWithValue("title", "Upper limb"), HaveKeyWithValue("card_count", float64(3))))
		Expect(content["cards"]).To(ConsistOf(
			And(HaveKeyWithValue("card_type", "basic"), HaveKeyWithValue("question", "Deltoid nerve?"), HaveKeyWithValue("answer", "Axillary")),
			And(HaveKeyWithValue("card_type", "cloze"), HaveKeyWithValue("question", ContainSubstring("[...]")),
				HaveKeyWithValue("question", ContainSubstring("humerus")), HaveKeyWithValue("answer", ContainSubstring("radial"))),
			And(HaveKeyWithValue("card_type", "cloze"), HaveKeyWithValue("question", ContainSubstring("bone")),
				HaveKeyWithValue("question", ContainSubstring("radial"))),
		), "one row per deletion number, each rendered as studied")
		Expect(stored(res.Map()["id"].(float64)).Views).To(Equal(int64(1)))
	})

	It("refuses a deck the sharer cannot see, or that is not shared site-wide, and stores nothing", func() {
		hidden := sharedDeck("Private notes", false)
		u := h.NewUser(auth.RoleUser)
		Expect(share(u, map[string]any{"kind": "deck", "target_id": hidden})).To(HaveError(404, "not_found"),
			"an unshared deck is hidden from a learner")
		Expect(share(mod, map[string]any{"kind": "deck", "target_id": hidden})).To(HaveError(409, "conflict"),
			"a link shows what the site already shows its learners")
		Expect(share(u, map[string]any{"kind": "deck", "target_id": 999999})).To(HaveError(404, "not_found"))
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM share.links WHERE kind = 'deck' AND target_id = ?`, hidden).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	It("stop opening once the deck is unshared or binned", func() {
		d := sharedDeck("Lower limb", true)
		u := h.NewUser(auth.RoleUser)
		mk := func() string {
			res := share(u, map[string]any{"kind": "deck", "target_id": d})
			ExpectWithOffset(1, res).To(HaveStatus(201))
			return res.Map()["token"].(string)
		}
		token := mk()
		Expect(open(token)).To(HaveStatus(200))
		admin := h.NewUser(auth.RoleAdmin)
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/flashcards/%d/share", d))).To(HaveStatus(200))
		gone := open(token)
		Expect(gone).To(HaveStatus(410))
		Expect(gone.Body).To(ContainSubstring("no longer shared"))

		Expect(mod.Client(h).Put(fmt.Sprintf("/api/v1/flashcards/%d/share", d), nil)).To(HaveStatus(200))
		Expect(open(token)).To(HaveStatus(200), "sharing the deck again reopens the link")
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/flashcards/%d", d))).To(HaveStatus(204))
		Expect(open(token)).To(HaveStatus(410))
	})
})
