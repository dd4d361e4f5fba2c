package interchange_test

import (
	"archive/zip"
	"bytes"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	"github.com/roundsedu/rounds/platform/auth"
)

func apkg(p ankifixtures.Package) []byte {
	data, err := ankifixtures.Build(p)
	Expect(err).NotTo(HaveOccurred())
	return data
}

func importApkg(u *User, query string, data []byte) *Response {
	return u.Client(h).With("Content-Type", "application/octet-stream").Post("/api/v1/flashcard-decks/import/apkg?"+query, data)
}

// deckStored counts decks and cards, to show a refused package stored nothing.
func deckStored() [2]int {
	return [2]int{count("SELECT count(*) FROM flashcards.decks"), count("SELECT count(*) FROM flashcards.cards")}
}

var refusedCat int64

// refusedCategory is one category for every refused package.
func refusedCategory() int64 {
	if refusedCat == 0 {
		refusedCat = newCategory("Anki refused")
	}
	return refusedCat
}

var basicNote = ankifixtures.Note{Model: ankifixtures.Basic, Fields: []string{"Front", "Back"}, Ords: []int{0}}

var _ = Describe("Anki package import", func() {
	It("makes a deck of the basic, reversed and cloze notes and lists each note left out", func() {
		cat := newCategory("Anki cardiology")
		data := apkg(ankifixtures.Package{DeckName: "Cardiology", Notes: []ankifixtures.Note{
			{Model: ankifixtures.Basic, Fields: []string{"<b>Mitral</b> valve", "between LA and LV"}, Ords: []int{0}},
			{Model: ankifixtures.Reversed, Fields: []string{"Tachycardia", "HR &gt; 100"}, Ords: []int{0, 1}},
			{Model: ankifixtures.Cloze, Fields: []string{"The {{c1::aorta}} leaves the {{c2::LV}}", ""}, Ords: []int{0, 1}},
			{Model: ankifixtures.Custom, Fields: []string{"a", "b", "c"}, Ords: []int{0, 1, 2}},
			{Model: ankifixtures.Cloze, Fields: []string{"An {{c1::unclosed deletion", ""}, Ords: []int{0}},
		}, Media: map[string]string{"0": "heart.png"}, Files: map[string][]byte{"0": {0x89, 'P', 'N', 'G'}}})
		res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
		Expect(res).To(HaveStatus(201))
		body := res.Map()
		Expect(body["title"]).To(Equal("Cardiology"))
		Expect(body["notes"]).To(BeNumerically("==", 3))
		Expect(body["cards"]).To(BeNumerically("==", 5))
		refused := body["refused"].([]any)
		Expect(refused).To(HaveLen(2))
		Expect(refused[0].(map[string]any)["item"]).To(BeNumerically("==", 4))
		Expect(refused[0].(map[string]any)["reason"]).To(ContainSubstring("3 card templates"))
		Expect(refused[1].(map[string]any)["item"]).To(BeNumerically("==", 5))
		Expect(refused[1].(map[string]any)["reason"]).NotTo(BeEmpty())

		deck := int64(body["deck_id"].(float64))
		cards := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcards/decks/%d/cards?limit=50", deck))
		Expect(cards).To(HaveStatus(200))
		var got []map[string]any
		cards.JSON(&got)
		sides := make([][3]any, len(got))
		for i, c := range got {
			sides[i] = [3]any{c["card_type"], c["front"], c["back"]}
		}
		Expect(sides).To(ConsistOf(
			[3]any{"basic", "Mitral valve", "between LA and LV"},
			[3]any{"reversed", "Tachycardia", "HR > 100"},
			[3]any{"reversed", "HR > 100", "Tachycardia"},
			[3]any{"cloze", "The {{c1::aorta}} leaves the {{c2::LV}}", ""},
			[3]any{"cloze", "The {{c1::aorta}} leaves the {{c2::LV}}", ""},
		))
		Expect(count("SELECT count(*) FROM flashcards.cards WHERE deck_id = ?", deck)).To(Equal(5))
	})

	DescribeTable("refuses hostile and malformed packages with nothing stored",
		func(data func() []byte, status int, code, message string) {
			cat := refusedCategory()
			before := deckStored()
			res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data())
			Expect(res).To(HaveError(status, code))
			Expect(res.Map()["error"].(map[string]any)["message"]).To(ContainSubstring(message))
			Expect(deckStored()).To(Equal(before))
		},
		Entry("not a zip", func() []byte { return []byte("%PDF-1.7") }, 400, "bad_request", "not a zip"),
		Entry("zip bomb", func() []byte {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.Create("collection.anki2")
			_, _ = w.Write(make([]byte, 16<<20)) // 16 MiB of zeros compress to about 16 KiB
			Expect(zw.Close()).To(Succeed())
			return buf.Bytes()
		}, 413, "too_large", "unpacks to more than"),
		Entry("path traversal in the media map", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{basicNote},
				Media: map[string]string{"0": "../../../../etc/cron.d/evil"}})
		}, 422, "invalid_request", "not paths"),
		Entry("a path as an entry name", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{basicNote},
				Files: map[string][]byte{"../evil.sh": []byte("#!/bin/sh")}})
		}, 422, "invalid_request", "plain file names"),
		Entry("no note flashcards can hold", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{
				{Model: ankifixtures.Custom, Fields: []string{"a", "b", "c"}, Ords: []int{0, 1, 2}}}})
		}, 422, "invalid_request", "none of the file's 1 notes"),
		Entry("notes the flashcards rules all refuse (rolled back)", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{
				{Model: ankifixtures.Cloze, Fields: []string{"An {{c1::unclosed", ""}, Ords: []int{0}}}})
		}, 422, "invalid_request", "none of the file's 1 notes"),
		Entry("oversized body", func() []byte { return make([]byte, maxPackageBytes+1) }, 413, "too_large", ""),
	)

	It("refuses learners and a missing category", func() {
		before := deckStored()
		data := apkg(ankifixtures.Package{Notes: []ankifixtures.Note{basicNote}})
		Expect(importApkg(h.NewUser(auth.RoleUser), "category_id=1", data)).To(HaveError(403, "forbidden"))
		Expect(importApkg(mod, "", data)).To(HaveError(422, "invalid_request"))
		Expect(importApkg(mod, "category_id=999999", data)).To(HaveError(422, "invalid_request"))
		Expect(deckStored()).To(Equal(before))
	})
})

var _ = Describe("Anki package export", func() {
	It("round-trips: an exported deck imports back with the same cards", func() {
		cat := newCategory("Anki round trip")
		data := apkg(ankifixtures.Package{DeckName: "Round trip", Notes: []ankifixtures.Note{
			{Model: ankifixtures.Basic, Fields: []string{"Mitral valve", "between LA and LV"}, Ords: []int{0}},
			{Model: ankifixtures.Reversed, Fields: []string{"Tachycardia", "HR > 100"}, Ords: []int{0, 1}},
			{Model: ankifixtures.Cloze, Fields: []string{"The {{c1::aorta}} leaves the {{c2::LV}}", "extra"}, Ords: []int{0, 1}},
		}})
		first := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
		Expect(first).To(HaveStatus(201))
		deck := int64(first.Map()["deck_id"].(float64))

		exp := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg", deck))
		Expect(exp).To(HaveStatus(200))
		Expect(exp.Header.Get("Content-Type")).To(Equal("application/zip"))
		Expect(exp.Header.Get("X-Cards-Left-Out")).To(Equal("0"))

		again := importApkg(mod, fmt.Sprintf("category_id=%d&title=Again", cat), exp.Body)
		Expect(again).To(HaveStatus(201))
		Expect(again.Map()["refused"]).To(BeEmpty())
		Expect(again.Map()["cards"]).To(BeNumerically("==", 5))
		Expect(cardSides(int64(again.Map()["deck_id"].(float64)))).To(Equal(cardSides(deck)))
	})

	It("answers 404 for a deck that does not exist", func() {
		Expect(mod.Client(h).Get("/api/v1/flashcard-decks/999999/export/apkg")).To(HaveError(404, "not_found"))
	})
})

// cardSides lists a deck's cards in order as type, front, back and cloze number.
func cardSides(deck int64) [][4]any {
	res := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcards/decks/%d/cards?limit=50", deck))
	Expect(res).To(HaveStatus(200))
	var got []map[string]any
	res.JSON(&got)
	out := make([][4]any, len(got))
	for i, c := range got {
		out[i] = [4]any{c["card_type"], c["front"], c["back"], c["cloze_number"]}
	}
	return out
}
