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

var _ = Describe("Deck grants", func() {
	It("let a holder of a one-deck grant edit, share and bin that deck, never remove it for good or link cards", func() {
		d, other := deck(mod, "Granted", category(0)), deck(mod, "Not granted", category(0))
		holder := h.NewUser(auth.RoleUser)
		grant(holder, "deck", d)

		res := holder.Client(h).Get(deckPath(d, ""))
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "UserId": Equal(mod.ID),
			"CanEdit": BeTrue()}))
		Expect(holder.Client(h).Get(deckPath(other, ""))).To(HaveError(404, "not_found"))
		Expect(deckIDs(holder.Client(h).Get(api + "/flashcards?limit=200"))).To(And(ContainElement(d), Not(ContainElement(other))))

		res = holder.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Title: new("Granted, edited")})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res).Title).To(Equal("Granted, edited"))
		card := cardIDs(addCard(holder, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")}))[0]
		Expect(holder.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		Expect(holder.Client(h).Delete(deckPath(d, "/share"))).To(HaveError(403, "forbidden"))

		By("card links check the moderator role itself")
		q := mod.Client(h).Post(api+"/questions/create", map[string]any{"question_text": "Linked?",
			"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes"})
		Expect(q).To(HaveStatus(201))
		qid := q.ID()
		link := fmt.Sprintf("%s/flashcards/cards/%d/question", api, card)
		Expect(holder.Client(h).Put(link, questionLink{QuestionId: qid})).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Delete(link)).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/article", api, card),
			contract.PutFlashcardsCardsByCardIdArticleRequest{ArticleId: 987654321})).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Put(link, questionLink{QuestionId: 999999})).To(HaveError(422, "invalid_request"))
		res = mod.Client(h).Put(link, questionLink{QuestionId: qid})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.FlashcardResponse](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(card), "DeckId": Equal(d),
			"QuestionId": HaveValue(Equal(qid))}))
		var stored *int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT question_id FROM flashcards.cards WHERE id = ?`, card).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(HaveValue(Equal(qid)))
		res = mod.Client(h).Delete(link)
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.FlashcardResponse](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(card), "QuestionId": BeNil()}))
		Expect(mod.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/article", api, card),
			contract.PutFlashcardsCardsByCardIdArticleRequest{ArticleId: 987654321})).To(HaveError(422, "invalid_request"))

		By("binning and restoring, but not removing for good")
		Expect(holder.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		Expect(deckIDs(holder.Client(h).Get(api + "/flashcards/trash"))).To(BeEmpty())
		Expect(holder.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Post(deckPath(d, "/restore"), nil)).To(HaveStatus(200))
		row, ok := storedDeck(d)
		Expect(ok).To(BeTrue())
		Expect(row.Deleted).To(BeFalse())
	})

	It("are given and revoked at /flashcards/grants by moderators, checking the deck or category exists", func() {
		d := deck(mod, "Granted here", category(0))
		holder, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		give := func(u *User, to *User, scope contract.PostFlashcardsGrantsRequestScope, target int64) *Response {
			return u.Client(h).Post(api+"/flashcards/grants", contract.PostFlashcardsGrantsRequest{UserId: to.ID, Scope: scope, TargetId: target})
		}

		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		res := give(mod, holder, "deck", d)
		Expect(res).To(HaveStatus(201))
		g := Body[contract.DeckGrantResponse](res)
		Expect(g).To(MatchFields(IgnoreExtras, Fields{"UserId": Equal(holder.ID), "Scope": BeEquivalentTo("deck"),
			"TargetId": Equal(d), "GrantedBy": Equal(mod.ID), "DeckIds": HaveValue(Equal([]int64{d}))}))
		Expect(holder.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Description: new("edited with the grant")})).To(HaveStatus(200))
		var kind string
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT kind FROM identity.grants WHERE id = ?`, g.Id).Scan(&kind).Error).To(Succeed())
		Expect(kind).To(Equal("deck"), "one store of grants: identity's")

		Expect(give(mod, holder, "deck", d)).To(HaveError(409, "conflict"))
		Expect(give(mod, other, "deck", 987654321)).To(HaveError(422, "invalid_request"))
		Expect(give(mod, other, "category", 987654321)).To(HaveError(422, "invalid_request"))
		Expect(give(mod, other, "quiz", d)).To(HaveError(422, "invalid_request"))
		Expect(give(mod, mod, "deck", d)).To(HaveError(400, "bad_request"))
		Expect(give(holder, other, "deck", d)).To(HaveError(403, "forbidden"))

		revoke := fmt.Sprintf("%s/flashcards/grants/%d?user_id=%d", api, g.Id, holder.ID)
		Expect(holder.Client(h).Delete(revoke)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/grants/%d?user_id=%d", api, g.Id, other.ID))).
			To(HaveError(404, "not_found"), "only the holder's own grant")
		Expect(mod.Client(h).Delete(revoke)).To(HaveStatus(204))
		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(revoke)).To(HaveError(404, "not_found"))

		quizGrant := mod.Client(h).Post(fmt.Sprintf("%s/access/%d/grants", api, other.ID), contract.GiveGrantInputBody{Kind: "quiz", TargetId: 1})
		Expect(quizGrant).To(HaveStatus(201))
		qg := Body[contract.GrantResponse](quizGrant)
		Expect(qg).To(MatchFields(IgnoreExtras, Fields{"Kind": BeEquivalentTo("quiz"), "UserId": Equal(other.ID)}))
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/grants/%d?user_id=%d", api, qg.Id, other.ID))).
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
		Expect(holder.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Description: new("edited by the branch holder")})).
			To(HaveStatus(200))
		Expect(holder.Client(h).Get(deckPath(far, ""))).To(HaveError(404, "not_found"))

		grants := func() []contract.DeckGrantResponse {
			res := mod.Client(h).Get(fmt.Sprintf("%s/flashcards/grants?user_id=%d", api, holder.ID))
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return Body[[]contract.DeckGrantResponse](res)
		}
		Expect(grants()).To(HaveExactElements(MatchFields(IgnoreExtras, Fields{"UserId": Equal(holder.ID),
			"Scope": BeEquivalentTo("category"), "TargetId": Equal(top), "GrantedBy": Equal(mod.ID),
			"DeckIds": HaveValue(Equal([]int64{d}))})))
		Expect(holder.Client(h).Get(fmt.Sprintf("%s/flashcards/grants?user_id=%d", api, holder.ID))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get(api + "/flashcards/grants?user_id=999999")).To(HaveError(404, "not_found"))

		By("moving the child out of the branch takes the deck out of the grant's reach")
		Expect(mod.Client(h).Patch(fmt.Sprintf("%s/question-categories/%d", api, child), map[string]any{"parent_id": nil})).
			To(HaveStatus(200))
		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(holder.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Title: new("No longer mine")})).To(HaveError(404, "not_found"))
		Expect(grants()).To(HaveExactElements(HaveField("DeckIds", HaveValue(BeEmpty()))))

		By("and filing the deck back under the branch brings it back")
		Expect(mod.Client(h).Patch(deckPath(d, ""), contract.DeckFields{CategoryId: &top})).To(HaveStatus(200))
		Expect(holder.Client(h).Get(deckPath(d, ""))).To(HaveStatus(200))
	})
})
