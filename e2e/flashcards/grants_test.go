package flashcards_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Deck grants", func() {
	It("let a holder of a one-deck grant edit, share and bin that deck, never remove it for good or link cards", func() {
		d, other := deck(mod, "Granted", category(0)), deck(mod, "Not granted", category(0))
		holder := h.NewUser(auth.RoleUser)
		grant(holder, "deck", d)

		res := holder.Client(h).Get(deckPath(d, ""))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("can_edit", true))
		Expect(holder.Client(h).Get(deckPath(other, ""))).To(HaveError(404, "not_found"))
		Expect(ids(holder.Client(h).Get(api + "/flashcards?limit=200").List())).To(And(ContainElement(d), Not(ContainElement(other))))

		Expect(holder.Client(h).Patch(deckPath(d, ""), map[string]any{"title": "Granted, edited"})).To(HaveStatus(200))
		res = addCard(holder, d, map[string]any{"card_type": "basic", "front": "Q", "back": "A"})
		Expect(res).To(HaveStatus(201))
		card := int64(res.Map()["cards"].([]any)[0].(map[string]any)["id"].(float64))
		Expect(holder.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		Expect(holder.Client(h).Delete(deckPath(d, "/share"))).To(HaveError(403, "forbidden"))

		By("card links check the moderator role itself")
		q := mod.Client(h).Post(api+"/questions/create", map[string]any{"question_text": "Linked?",
			"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes"})
		Expect(q).To(HaveStatus(201))
		qid := q.ID()
		link := fmt.Sprintf("%s/flashcards/cards/%d/question", api, card)
		Expect(holder.Client(h).Put(link, map[string]any{"question_id": qid})).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Delete(link)).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/article", api, card), map[string]any{"article_id": 987654321})).
			To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Put(link, map[string]any{"question_id": 999999})).To(HaveError(422, "invalid_request"))
		res = mod.Client(h).Put(link, map[string]any{"question_id": qid})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("question_id", BeNumerically("==", qid)))
		var stored *int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT question_id FROM flashcards.cards WHERE id = ?`, card).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(HaveValue(Equal(qid)))
		Expect(mod.Client(h).Delete(link)).To(HaveStatus(200))
		Expect(mod.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/article", api, card), map[string]any{"article_id": 987654321})).
			To(HaveError(422, "invalid_request"))

		By("binning and restoring, but not removing for good")
		Expect(holder.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		Expect(holder.Client(h).Get(api + "/flashcards/trash").List()).To(BeEmpty())
		Expect(holder.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Post(deckPath(d, "/restore"), nil)).To(HaveStatus(200))
		row, ok := storedDeck(d)
		Expect(ok).To(BeTrue())
		Expect(row.Deleted).To(BeFalse())
	})

	It("are given and revoked at /flashcards/grants by moderators, checking the deck or category exists", func() {
		d := deck(mod, "Granted here", category(0))
		holder, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		give := func(u *User, body map[string]any) *Response { return u.Client(h).Post(api+"/flashcards/grants", body) }

		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		res := give(mod, map[string]any{"user_id": holder.ID, "scope": "deck", "target_id": d})
		Expect(res).To(HaveStatus(201))
		g := res.Map()
		Expect(g).To(And(HaveKeyWithValue("scope", "deck"), HaveKeyWithValue("granted_by", BeNumerically("==", mod.ID)),
			HaveKeyWithValue("deck_ids", ConsistOf(BeNumerically("==", d)))))
		Expect(holder.Client(h).Patch(deckPath(d, ""), map[string]any{"description": "edited with the grant"})).To(HaveStatus(200))
		var kind string
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT kind FROM identity.grants WHERE id = ?`, int64(g["id"].(float64))).
			Scan(&kind).Error).To(Succeed())
		Expect(kind).To(Equal("deck"), "one store of grants: identity's")

		Expect(give(mod, map[string]any{"user_id": holder.ID, "scope": "deck", "target_id": d})).To(HaveError(409, "conflict"))
		Expect(give(mod, map[string]any{"user_id": other.ID, "scope": "deck", "target_id": 987654321})).
			To(HaveError(422, "invalid_request"))
		Expect(give(mod, map[string]any{"user_id": other.ID, "scope": "category", "target_id": 987654321})).
			To(HaveError(422, "invalid_request"))
		Expect(give(mod, map[string]any{"user_id": other.ID, "scope": "quiz", "target_id": d})).To(HaveError(422, "invalid_request"))
		Expect(give(mod, map[string]any{"user_id": mod.ID, "scope": "deck", "target_id": d})).To(HaveError(400, "bad_request"))
		Expect(give(holder, map[string]any{"user_id": other.ID, "scope": "deck", "target_id": d})).To(HaveError(403, "forbidden"))

		revoke := fmt.Sprintf("%s/flashcards/grants/%d?user_id=%d", api, int64(g["id"].(float64)), holder.ID)
		Expect(holder.Client(h).Delete(revoke)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/grants/%d?user_id=%d", api, int64(g["id"].(float64)), other.ID))).
			To(HaveError(404, "not_found"), "only the holder's own grant")
		Expect(mod.Client(h).Delete(revoke)).To(HaveStatus(204))
		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(revoke)).To(HaveError(404, "not_found"))

		quizGrant := mod.Client(h).Post(fmt.Sprintf("%s/access/%d/grants", api, other.ID), map[string]any{"kind": "quiz", "target_id": 1})
		Expect(quizGrant).To(HaveStatus(201))
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/grants/%d?user_id=%d", api, int64(quizGrant.Map()["id"].(float64)), other.ID))).
			To(HaveError(404, "not_found"), "other kinds are identity's to revoke")
	})

	It("evaluate a category-branch grant against the tree at check time", func() {
		top := category(0)
		child := category(top)
		outside := category(0)
		d := deck(mod, "In the branch", child)
		far := deck(mod, "Outside", outside)
		holder := h.NewUser(auth.RoleUser)
		grant(holder, "category", top)

		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveStatus(200))
		Expect(holder.Client(h).Patch(deckPath(d, ""), map[string]any{"description": "edited by the branch holder"})).To(HaveStatus(200))
		Expect(holder.Client(h).Get(deckPath(far, ""))).To(HaveError(404, "not_found"))

		res := mod.Client(h).Get(fmt.Sprintf("%s/flashcards/grants?user_id=%d", api, holder.ID))
		Expect(res).To(HaveStatus(200))
		Expect(res.List()).To(HaveLen(1))
		g := res.List()[0].(map[string]any)
		Expect(g).To(And(HaveKeyWithValue("scope", "category"), HaveKeyWithValue("target_id", BeNumerically("==", top))))
		Expect(g["deck_ids"]).To(ConsistOf(BeNumerically("==", d)))
		Expect(holder.Client(h).Get(fmt.Sprintf("%s/flashcards/grants?user_id=%d", api, holder.ID))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get(api + "/flashcards/grants?user_id=999999")).To(HaveError(404, "not_found"))

		By("moving the child out of the branch takes the deck out of the grant's reach")
		Expect(mod.Client(h).Patch(fmt.Sprintf("%s/question-categories/%d", api, child), map[string]any{"parent_id": nil})).
			To(HaveStatus(200))
		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(holder.Client(h).Patch(deckPath(d, ""), map[string]any{"title": "No longer mine"})).To(HaveError(404, "not_found"))
		res = mod.Client(h).Get(fmt.Sprintf("%s/flashcards/grants?user_id=%d", api, holder.ID))
		Expect(res.List()[0].(map[string]any)["deck_ids"]).To(BeEmpty())

		By("and filing the deck back under the branch brings it back")
		Expect(mod.Client(h).Patch(deckPath(d, ""), map[string]any{"category_id": top})).To(HaveStatus(200))
		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveStatus(200))
	})
})
