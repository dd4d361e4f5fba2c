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
	DescribeTable("makes a deck of the notes of every layout Anki writes, says how each note type was taken and lists each note left out",
		func(layout ankifixtures.Layout) {
			cat := newCategory(fmt.Sprintf("Anki cardiology %d", layout))
			data := apkg(ankifixtures.Package{Layout: layout, DeckName: "Cardiology", Notes: []ankifixtures.Note{
				{Model: ankifixtures.Basic, Fields: []string{"<b>Mitral</b> valve", "between LA and LV"}, Ords: []int{0}},
				{Model: ankifixtures.Reversed, Fields: []string{"Tachycardia", "HR &gt; 100"}, Ords: []int{0, 1}},
				{Model: ankifixtures.Cloze, Fields: []string{"The {{c1::aorta}} leaves the {{c2::LV}}", ""}, Ords: []int{0, 1}},
				{Model: ankifixtures.TypeIn, Fields: []string{"Normal K+ upper bound (mmol/L)?", "5.0"}, Ords: []int{0}},
				{Model: ankifixtures.Custom, Fields: []string{"a", "b", "c"}, Ords: []int{0, 1, 2}},
				{Model: 999, Fields: []string{"orphan", "x"}, Ords: []int{0}},
				{Model: ankifixtures.Cloze, Fields: []string{"An {{c1::unclosed deletion", ""}, Ords: []int{0}},
			}, Media: map[string]string{"0": "heart.png"}, Files: map[string][]byte{"0": {0x89, 'P', 'N', 'G'}}})
			res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
			Expect(res).To(HaveStatus(201))
			body := res.Map()
			Expect(body["title"]).To(Equal("Cardiology"))
			Expect(body["notes"]).To(BeNumerically("==", 5))
			Expect(body["cards"]).To(BeNumerically("==", 9))
			Expect(body["refused"]).To(ConsistOf(
				map[string]any{"item": 6.0, "name": "", "reason": "its note type is missing from the collection"},
				HaveKeyWithValue("item", 7.0),
			))
			as := map[string]any{}
			for _, m := range body["mapped"].([]any) {
				m := m.(map[string]any)
				as[m["note_type"].(string)] = m["as"]
				Expect(m["how"]).NotTo(BeEmpty())
			}
			Expect(as).To(Equal(map[string]any{"Basic": "basic", "Basic (and reversed card)": "reversed", "Cloze": "cloze",
				"Basic (type in the answer)": "type_in", "Three ways": "basic"}))

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
				[3]any{"type_in", "Normal K+ upper bound (mmol/L)?", "5.0"},
				[3]any{"basic", "a", "b"},
				[3]any{"basic", "b", "c"},
				[3]any{"basic", "c", "a"},
			))
			Expect(count("SELECT count(*) FROM flashcards.cards WHERE deck_id = ?", deck)).To(Equal(9))
		},
		Entry("latest (Anki 2.1.50+: meta, zstd collection.anki21b, schema 18, decoy collection.anki2)", ankifixtures.Latest),
		Entry("legacy 2 (\"Support older Anki versions\": meta, collection.anki21, decoy)", ankifixtures.Legacy2),
		Entry("legacy 1 (collection.anki2 alone)", ankifixtures.Legacy1),
	)

	It("refuses a collection that would run its own SQL (a view of a few KiB making hundreds of MiB), with nothing stored", func() {
		cat := refusedCategory()
		before := deckStored()
		bomb := `DROP TABLE notes; CREATE VIEW notes AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
			SELECT i AS id, '' AS guid, 1001 AS mid, 0 AS mod, 0 AS usn, '' AS tags,
			printf('%.*c', 4194304, 'x') || char(31) || 'b' AS flds, '' AS sfld, 0 AS csum, 0 AS flags, '' AS data FROM n`
		for _, tamper := range [][]string{{bomb}, {`CREATE TRIGGER t AFTER INSERT ON notes BEGIN DELETE FROM cards; END`}} {
			data := apkg(ankifixtures.Package{Layout: ankifixtures.Legacy1, Notes: []ankifixtures.Note{basicNote}, Tamper: tamper})
			Expect(len(data)).To(BeNumerically("<", 4<<10))
			res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
			Expect(res).To(HaveError(422, "invalid_request"))
			Expect(res.Map()["error"].(map[string]any)["message"]).To(MatchRegexp(`declares a (view|trigger) \("(notes|t)"\)`))
		}
		Expect(deckStored()).To(Equal(before))
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
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{{Model: 999, Fields: []string{"a", "b"}, Ords: []int{0}}}})
		}, 422, "invalid_request", "none of the file's 1 notes"),
		Entry("a package from a newer Anki", func() []byte {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.Create("meta")
			_, _ = w.Write([]byte{0x08, 0x04})
			Expect(zw.Close()).To(Succeed())
			return buf.Bytes()
		}, 400, "bad_request", "newer than this service reads"),
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
			{Model: ankifixtures.TypeIn, Fields: []string{"Normal K+ upper bound?", "5.0"}, Ords: []int{0}},
		}})
		first := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
		Expect(first).To(HaveStatus(201))
		deck := int64(first.Map()["deck_id"].(float64))

		for _, layout := range []string{"", "?layout=latest", "?layout=legacy"} {
			exp := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg%s", deck, layout))
			Expect(exp).To(HaveStatus(200))
			Expect(exp.Header.Get("Content-Type")).To(Equal("application/zip"))
			Expect(exp.Header.Get("X-Cards-Left-Out")).To(Equal("0"))
			zr, err := zip.NewReader(bytes.NewReader(exp.Body), int64(len(exp.Body)))
			Expect(err).NotTo(HaveOccurred())
			names := []string{}
			for _, f := range zr.File {
				names = append(names, f.Name)
			}
			if layout == "?layout=legacy" {
				Expect(names).To(ConsistOf("collection.anki2", "media"))
			} else {
				Expect(names).To(ConsistOf("meta", "collection.anki21b", "collection.anki2", "media"))
			}

			again := importApkg(mod, fmt.Sprintf("category_id=%d&title=Again", cat), exp.Body)
			Expect(again).To(HaveStatus(201))
			Expect(again.Map()["refused"]).To(BeEmpty())
			Expect(again.Map()["cards"]).To(BeNumerically("==", 6))
			Expect(cardSides(int64(again.Map()["deck_id"].(float64)))).To(Equal(cardSides(deck)))
		}
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg?layout=v9", deck))).To(HaveError(422, "invalid_request"))
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
