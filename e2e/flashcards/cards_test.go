package flashcards_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
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

func cardIDs(res *Response) []int64 {
	return ids(res.Map()["cards"].([]any))
}

var _ = Describe("Cards", func() {
	It("stores each type as its rows and answers the real count", func() {
		d := deck(mod, "Every type", category(0))

		res := addCard(mod, d, map[string]any{"card_type": "basic", "front": "Opening snap?", "back": "Mitral stenosis"})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("count", BeNumerically("==", 1)))

		res = addCard(mod, d, map[string]any{"card_type": "reversed", "front": "Digoxin antidote", "back": "Digibind"})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("count", BeNumerically("==", 2)))
		pair := cardIDs(res)

		res = addCard(mod, d, map[string]any{"card_type": "cloze",
			"front": "{{c1::Aortic::valve}} stenosis: {{c2::syncope}}, {{c3::angina}}, and {{c1::dyspnoea}}.", "back": "SAD"})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("count", BeNumerically("==", 3)))

		res = addCard(mod, d, map[string]any{"card_type": "type_in", "front": "Eponym of acute polyneuropathy", "back": "Guillain-Barré | GBS"})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("count", BeNumerically("==", 1)))

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
		Expect(detail.Map()).To(HaveKeyWithValue("card_count", BeNumerically("==", 7)))
		list := mod.Client(h).Get(fmt.Sprintf("%s/flashcards/decks/%d/cards", api, d))
		Expect(list).To(HaveStatus(200))
		Expect(list.Header.Get("X-Total-Count")).To(Equal("7"))
	})

	It("refuses what it cannot store, with a clear message", func() {
		d := deck(mod, "Refusals", category(0))
		for _, c := range []struct {
			body map[string]any
			says string
		}{
			{map[string]any{"card_type": "cloze", "front": "{{c1::outer {{c2::inner}} }}"}, "nested"},
			{map[string]any{"card_type": "cloze", "front": "{{c1::never closed"}, "never closed"},
			{map[string]any{"card_type": "cloze", "front": "no deletions here"}, "at least one deletion"},
			{map[string]any{"card_type": "image", "front": "What is shown?"}, "needs a picture"},
			{map[string]any{"card_type": "basic", "front": "Q"}, "needs a back"},
			{map[string]any{"card_type": "reversed", "front": "  ", "back": "A"}, "front must not be blank"},
			{map[string]any{"card_type": "type_in", "front": "Q", "back": " | "}, "needs an answer"},
		} {
			res := addCard(mod, d, c.body)
			Expect(res).To(HaveError(422, "invalid_request"), "%v", c.body)
			Expect(string(res.Body)).To(ContainSubstring(c.says))
		}
		Expect(addCard(mod, d, map[string]any{"card_type": "flip", "front": "Q", "back": "A"})).To(HaveError(422, "invalid_request"))
		// A picture nothing has is the 404 of any asset the editor may not use.
		for _, typ := range []string{"image", "basic"} {
			Expect(addCard(mod, d, map[string]any{"card_type": typ, "front": "Q", "back": "A", "picture_id": 999999})).
				To(HaveError(404, "not_found"), typ)
		}
		Expect(storedCards(d)).To(BeEmpty())
		Expect(addCard(mod, 999999, map[string]any{"card_type": "basic", "front": "Q", "back": "A"})).To(HaveError(404, "not_found"))
	})

	It("deletes a card for good, and half of a reversed pair takes both", func() {
		d := deck(mod, "Deleting", category(0))
		Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		pair := cardIDs(addCard(mod, d, map[string]any{"card_type": "reversed", "front": "F", "back": "B"}))
		single := cardIDs(addCard(mod, d, map[string]any{"card_type": "basic", "front": "Q", "back": "A"}))[0]
		learner := h.NewUser(auth.RoleUser)

		Expect(learner.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d", api, pair[1]))).To(HaveError(403, "forbidden"))
		Expect(storedCards(d)).To(HaveLen(3))

		res := mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d", api, pair[1]))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("deleted", BeNumerically("==", 2)))
		rows := storedCards(d)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].ID).To(Equal(single))
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d", api, pair[0]))).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Reporting a card", func() {
	It("lets a learner report a card of a deck they may study, and only such a card", func() {
		_, shared := sharedDeck("Reportable", map[string]any{"card_type": "cloze", "front": "{{c1::Mitral}} stenosis"})
		hidden := deck(mod, "Hidden", category(0))
		secret := cardIDs(addCard(mod, hidden, map[string]any{"card_type": "basic", "front": "Secret", "back": "A"}))[0]
		learner := h.NewUser(auth.RoleUser)

		res := learner.Client(h).Post(api+"/feedback", map[string]any{"kind": "card", "target_id": shared[0],
			"type": "typo", "text": "Mitral is misspelt in my language pack."})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("title", "[...] stenosis"))
		Expect(learner.Client(h).Post(api+"/feedback", map[string]any{"kind": "card", "target_id": secret,
			"type": "typo", "text": "Probing."})).To(HaveError(404, "not_found"))
	})
})
