package flashcards_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Decks", func() {
	It("lets only moderators start a deck, with title and an existing category, unshared and owned", func() {
		cat := category(0)
		learner := h.NewUser(auth.RoleUser)
		body := contract.PostFlashcardsManualRequest{Title: "Murmurs", CategoryId: cat}

		Expect(learner.Client(h).Post(api+"/flashcards/manual", body)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Post(api+"/flashcards/manual", map[string]any{"title": "No category"})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(api+"/flashcards/manual", contract.PostFlashcardsManualRequest{Title: "Lost", CategoryId: 999999})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(api+"/flashcards/manual", contract.PostFlashcardsManualRequest{Title: "   ", CategoryId: cat})).
			To(HaveError(422, "invalid_request"))

		res := mod.Client(h).Post(api+"/flashcards/manual", body)
		Expect(res).To(HaveStatus(201))
		made := Body[contract.DeckDetail](res)
		Expect(made).To(Equal(contract.DeckDetail{Id: made.Id, Title: "Murmurs", CategoryId: &cat, UserId: mod.ID,
			CanEdit: true, CreatedAt: made.CreatedAt, UpdatedAt: made.UpdatedAt}), "unshared, owned, no cards, no exam")
		Expect(made.CreatedAt).To(BeTemporally("~", time.Now(), time.Minute))
		row, ok := storedDeck(made.Id)
		Expect(ok).To(BeTrue())
		Expect(row).To(Equal(deckRow{IsShared: false, UserID: mod.ID, Title: "Murmurs"}))

		res = admin.Client(h).Post(api+"/flashcards/manual", contract.PostFlashcardsManualRequest{Title: "Admin's", CategoryId: cat})
		Expect(res).To(HaveStatus(201))
	})

	It("shows an unshared deck only to its editors, and a shared one to everyone", func() {
		d := deck(mod, "Valves", category(0))
		learner := h.NewUser(auth.RoleUser)

		Expect(learner.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(deckIDs(learner.Client(h).Get(api + "/flashcards?limit=200"))).NotTo(ContainElement(d))
		Expect(deckIDs(mod.Client(h).Get(api + "/flashcards?limit=200"))).To(ContainElement(d))
		Expect(learner.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveError(404, "not_found"))

		res := mod.Client(h).Put(deckPath(d, "/share"), nil)
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "IsShared": BeTrue()}))
		row, _ := storedDeck(d)
		Expect(row.IsShared).To(BeTrue())

		res = learner.Client(h).Get(deckPath(d, ""))
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "Title": Equal("Valves"),
			"CanEdit": BeFalse(), "CardCount": BeZero()}))
		Expect(deckIDs(learner.Client(h).Get(api + "/flashcards?limit=200"))).To(ContainElement(d))

		By("a learner who may study it still may not edit, share or bin it")
		Expect(learner.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Title: new("Mine now")})).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Delete(deckPath(d, ""))).To(HaveError(403, "forbidden"))
		Expect(addCard(learner, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")})).To(HaveError(403, "forbidden"))
		row, _ = storedDeck(d)
		Expect(row.Title).To(Equal("Valves"))
	})

	It("lets only an admin force-unshare", func() {
		d := deck(mod, "Shared then pulled", category(0))
		Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		learner := h.NewUser(auth.RoleUser)

		Expect(learner.Client(h).Delete(deckPath(d, "/share"))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Delete(deckPath(d, "/share"))).To(HaveError(403, "forbidden"))
		row, _ := storedDeck(d)
		Expect(row.IsShared).To(BeTrue())

		res := admin.Client(h).Delete(deckPath(d, "/share"))
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "IsShared": BeFalse()}))
		row, _ = storedDeck(d)
		Expect(row.IsShared).To(BeFalse())
		Expect(learner.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(admin.Client(h).Delete(deckPath(999999, "/share"))).To(HaveError(404, "not_found"))
	})

	It("bins, lists the bin per role, restores and removes for good", func() {
		d := deck(mod, "To the bin", category(0))
		Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		learner := h.NewUser(auth.RoleUser)

		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		row, _ := storedDeck(d)
		Expect(row.Deleted).To(BeTrue())
		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveError(409, "conflict"))
		Expect(learner.Client(h).Get(deckPath(d, ""))).To(HaveError(404, "not_found"))
		Expect(deckIDs(mod.Client(h).Get(api + "/flashcards?limit=200"))).NotTo(ContainElement(d))

		By("the trash: moderators and admins see binned decks, learners an empty list")
		Expect(deckIDs(mod.Client(h).Get(api + "/flashcards/trash?limit=200"))).To(ContainElement(d))
		Expect(deckIDs(admin.Client(h).Get(api + "/flashcards/trash?limit=200"))).To(ContainElement(d))
		res := learner.Client(h).Get(api + "/flashcards/trash")
		Expect(res).To(HaveStatus(200))
		Expect(Body[[]contract.DeckResponse](res)).To(And(Not(BeNil()), BeEmpty()))
		Expect(res.Header.Get("X-Total-Count")).To(Equal("0"))

		By("restoring")
		Expect(learner.Client(h).Post(deckPath(d, "/restore"), nil)).To(HaveError(404, "not_found"))
		res = mod.Client(h).Post(deckPath(d, "/restore"), nil)
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "DeletedAt": BeNil()}))
		Expect(mod.Client(h).Post(deckPath(d, "/restore"), nil)).To(HaveError(409, "conflict"))
		Expect(deckIDs(mod.Client(h).Get(api + "/flashcards/trash?limit=200"))).NotTo(ContainElement(d))

		By("removing for good, cards and all")
		Expect(addCard(mod, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")})).To(HaveStatus(201))
		Expect(learner.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveStatus(204))
		_, ok := storedDeck(d)
		Expect(ok).To(BeFalse())
		var cards int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, d).Scan(&cards).Error).To(Succeed())
		Expect(cards).To(BeZero())
		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveError(404, "not_found"))
	})

	It("updates a deck's fields for its editors", func() {
		d := deck(mod, "Old title", category(0))
		other := category(0)
		Expect(mod.Client(h).Patch(deckPath(d, ""), contract.DeckFields{CategoryId: new(int64(999999))})).
			To(HaveError(422, "invalid_request"))
		res := mod.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Title: new(" New title "), CategoryId: &other,
			IgnoreAccents: new(true)})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "Title": Equal("New title"),
			"IgnoreAccents": BeTrue(), "CategoryId": HaveValue(Equal(other))}))
		row, _ := storedDeck(d)
		Expect(row.Title).To(Equal("New title"))
	})

	It("still honours the owner after they stop being a moderator", func() {
		owner := h.NewUser(auth.RoleModerator)
		d := deck(owner, "Owned", category(0))
		Expect(admin.Client(h).Put(fmt.Sprintf("%s/admin/users/%d/role", api, owner.ID), map[string]any{"role": "user"})).
			To(HaveStatus(200))

		Expect(owner.Client(h).Post(api+"/flashcards/manual", contract.PostFlashcardsManualRequest{Title: "Another", CategoryId: category(0)})).
			To(HaveError(403, "forbidden"))
		res := owner.Client(h).Get(deckPath(d, ""))
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d), "UserId": Equal(owner.ID),
			"CanEdit": BeTrue()}))
		Expect(owner.Client(h).Patch(deckPath(d, ""), contract.DeckFields{Title: new("Still mine")})).To(HaveStatus(200))
		Expect(addCard(owner, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")})).To(HaveStatus(201))
		Expect(owner.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		Expect(owner.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		Expect(deckIDs(owner.Client(h).Get(api + "/flashcards/trash"))).To(BeEmpty())
		Expect(owner.Client(h).Post(deckPath(d, "/restore"), nil)).To(HaveStatus(200))
		Expect(owner.Client(h).Delete(deckPath(d, "?permanent=true"))).To(HaveStatus(204))
	})
})
