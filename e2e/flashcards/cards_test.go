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

type cardRow struct {
	ID          int64
	CardType    string
	Front, Back string
	ClozeNumber *int
	PairID      *int64
}

func storedCards(d int64) []cardRow {
	var rows []cardRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT id, card_type, front, back, cloze_number, pair_id
		FROM flashcards.cards WHERE deck_id = ? ORDER BY id`, d).Scan(&rows).Error).To(Succeed())
	return rows
}

var _ = Describe("Cards", func() {
	It("stores each type as its rows and answers the real count", func() {
		d := deck(mod, "Every type", category(0))

		res := addCard(mod, d, cardBody{CardType: "basic", Front: "Opening snap?", Back: new("Mitral stenosis")})
		Expect(res).To(HaveStatus(201))
		count, cards := added(res)
		Expect(count).To(BeEquivalentTo(1))
		Expect(cards).To(HaveExactElements(MatchFields(IgnoreExtras, Fields{"DeckId": Equal(d), "CardType": Equal("basic"),
			"Front": Equal("Opening snap?"), "Back": Equal("Mitral stenosis"), "ClozeNumber": BeNil(), "PairId": BeNil(),
			"CreatedAt": BeTemporally("~", time.Now(), time.Minute)})))

		res = addCard(mod, d, cardBody{CardType: "reversed", Front: "Digoxin antidote", Back: new("Digibind")})
		Expect(res).To(HaveStatus(201))
		count, cards = added(res)
		Expect(count).To(BeEquivalentTo(2))
		pair := cardIDs(res)
		Expect(cards).To(HaveExactElements(
			MatchFields(IgnoreExtras, Fields{"Front": Equal("Digoxin antidote"), "Back": Equal("Digibind"), "PairId": HaveValue(Equal(pair[0]))}),
			MatchFields(IgnoreExtras, Fields{"Front": Equal("Digibind"), "Back": Equal("Digoxin antidote"), "PairId": HaveValue(Equal(pair[0]))})))

		res = addCard(mod, d, cardBody{CardType: "cloze",
			Front: "{{c1::Aortic::valve}} stenosis: {{c2::syncope}}, {{c3::angina}}, and {{c1::dyspnoea}}.", Back: new("SAD")})
		Expect(res).To(HaveStatus(201))
		count, cards = added(res)
		Expect(count).To(BeEquivalentTo(3))
		var clozes []int64
		for _, c := range cards {
			Expect(c.ClozeNumber).NotTo(BeNil())
			clozes = append(clozes, *c.ClozeNumber)
		}
		Expect(clozes).To(Equal([]int64{1, 2, 3}))

		res = addCard(mod, d, cardBody{CardType: "type_in", Front: "Eponym of acute polyneuropathy", Back: new("Guillain-Barré | GBS")})
		Expect(res).To(HaveStatus(201))
		count, _ = added(res)
		Expect(count).To(BeEquivalentTo(1))

		rows := storedCards(d)
		Expect(rows).To(HaveLen(7))
		Expect(rows[1]).To(Equal(cardRow{ID: pair[0], CardType: "reversed", Front: "Digoxin antidote", Back: "Digibind", PairID: &pair[0]}))
		Expect(rows[2]).To(Equal(cardRow{ID: pair[1], CardType: "reversed", Front: "Digibind", Back: "Digoxin antidote", PairID: &pair[0]}))
		var numbers []int
		for _, r := range rows[3:6] {
			numbers = append(numbers, *r.ClozeNumber)
		}
		Expect(numbers).To(Equal([]int{1, 2, 3}))
		detail := mod.Client(h).Get(deckPath(d, ""))
		Expect(detail).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](detail).CardCount).To(BeEquivalentTo(7))
		list := mod.Client(h).Get(fmt.Sprintf("%s/flashcards/decks/%d/cards", api, d))
		Expect(list).To(HaveStatus(200))
		Expect(list.Header.Get("X-Total-Count")).To(Equal("7"))
		var listed []int64
		for _, c := range Body[[]contract.FlashcardResponse](list) {
			listed = append(listed, c.Id)
		}
		var stored []int64
		for _, r := range rows {
			stored = append(stored, r.ID)
		}
		Expect(listed).To(Equal(stored), "in the order written")
	})

	It("refuses what it cannot store, with a clear message", func() {
		d := deck(mod, "Refusals", category(0))
		for _, c := range []struct {
			body cardBody
			says string
		}{
			{cardBody{CardType: "cloze", Front: "{{c1::outer {{c2::inner}} }}"}, "nested"},
			{cardBody{CardType: "cloze", Front: "{{c1::never closed"}, "never closed"},
			{cardBody{CardType: "cloze", Front: "no deletions here"}, "at least one deletion"},
			{cardBody{CardType: "image", Front: "What is shown?"}, "needs a picture"},
			{cardBody{CardType: "basic", Front: "Q"}, "needs a back"},
			{cardBody{CardType: "reversed", Front: "  ", Back: new("A")}, "front must not be blank"},
			{cardBody{CardType: "type_in", Front: "Q", Back: new(" | ")}, "needs an answer"},
		} {
			res := addCard(mod, d, c.body)
			Expect(res).To(HaveError(422, "invalid_request"), "%s %q", c.body.CardType, c.body.Front)
			Expect(string(res.Body)).To(ContainSubstring(c.says))
		}
		Expect(addCard(mod, d, cardBody{CardType: "flip", Front: "Q", Back: new("A")})).To(HaveError(422, "invalid_request"))
		// A picture nothing has is the 404 of any asset the editor may not use.
		for _, typ := range []cardType{"image", "basic"} {
			Expect(addCard(mod, d, cardBody{CardType: typ, Front: "Q", Back: new("A"), PictureId: new(int64(999999))})).
				To(HaveError(404, "not_found"), string(typ))
		}
		Expect(storedCards(d)).To(BeEmpty())
		Expect(addCard(mod, 999999, cardBody{CardType: "basic", Front: "Q", Back: new("A")})).To(HaveError(404, "not_found"))
	})

	It("deletes a card for good, and half of a reversed pair takes both", func() {
		d := deck(mod, "Deleting", category(0))
		Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		pair := cardIDs(addCard(mod, d, cardBody{CardType: "reversed", Front: "F", Back: new("B")}))
		single := cardIDs(addCard(mod, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")}))[0]
		learner := h.NewUser(auth.RoleUser)

		Expect(learner.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d", api, pair[1]))).To(HaveError(403, "forbidden"))
		Expect(storedCards(d)).To(HaveLen(3))

		res := mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d", api, pair[1]))
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeletedOutBody](res)).To(Equal(contract.DeletedOutBody{Deleted: 2}))
		rows := storedCards(d)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].ID).To(Equal(single))
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d", api, pair[0]))).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Reporting a card", func() {
	It("lets a learner report a card of a deck they may study, and only such a card", func() {
		_, shared := sharedDeck("Reportable", cardBody{CardType: "cloze", Front: "{{c1::Mitral}} stenosis"})
		hidden := deck(mod, "Hidden", category(0))
		secret := cardIDs(addCard(mod, hidden, cardBody{CardType: "basic", Front: "Secret", Back: new("A")}))[0]
		learner := h.NewUser(auth.RoleUser)

		res := learner.Client(h).Post(api+"/feedback", contract.PostFeedbackRequest{Kind: "card", TargetId: shared[0],
			Type: "typo", Text: "Mitral is misspelt in my language pack."})
		Expect(res).To(HaveStatus(201))
		Expect(Body[contract.ReportResponse](res)).To(MatchFields(IgnoreExtras, Fields{"Kind": Equal("card"),
			"TargetId": Equal(shared[0]), "ReporterId": Equal(learner.ID), "Title": Equal("[...] stenosis")}))
		Expect(learner.Client(h).Post(api+"/feedback", contract.PostFeedbackRequest{Kind: "card", TargetId: secret,
			Type: "typo", Text: "Probing."})).To(HaveError(404, "not_found"))
	})
})
