package interchange_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
)

// pngOf draws a small picture of one colour (distinct bytes per shade).
func pngOf(shade uint8) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for x := 0; x < 4; x++ {
		for y := 0; y < 3; y++ {
			img.Set(x, y, color.RGBA{shade, 40, 90, 255})
		}
	}
	var buf bytes.Buffer
	Expect(png.Encode(&buf, img)).To(Succeed())
	return buf.Bytes()
}

// storedFiles counts the files in the suite's storage bucket.
func storedFiles() int {
	n := 0
	root := strings.TrimPrefix(h.Config.Storage.URL, "file://")
	_ = filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			n++
		}
		return nil
	})
	return n
}

// mediaStored is decks, cards, media assets and stored files.
func mediaStored() [4]int {
	d := deckStored()
	return [4]int{d[0], d[1], count("SELECT count(*) FROM media.assets"), storedFiles()}
}

// pictureBytes reads a card picture's stored bytes through its asset.
func pictureBytes(assetID int64) []byte {
	var key string
	Expect(h.App.DB.Conn(context.Background()).Raw("SELECT path FROM media.assets WHERE id = ?", assetID).
		Scan(&key).Error).To(Succeed())
	return storedBytes(key)
}

// deckCards lists a deck's cards as the API gives them.
func deckCards(deck int64) []map[string]any {
	res := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcards/decks/%d/cards?limit=50", deck))
	Expect(res).To(HaveStatus(200))
	var got []map[string]any
	res.JSON(&got)
	return got
}

// pictures are a deck's cards as type, front, back and picture bytes.
func pictures(deck int64) [][4]any {
	var out [][4]any
	for _, c := range deckCards(deck) {
		var pic []byte
		if id, ok := c["picture_id"].(float64); ok {
			pic = pictureBytes(int64(id))
		}
		out = append(out, [4]any{c["card_type"], c["front"], c["back"], pic})
	}
	return out
}

var _ = Describe("Anki package media", func() {
	heart, ecg := pngOf(10), pngOf(200)

	It("keeps the notes' pictures as the cards' pictures and round-trips their bytes", func() {
		cat := newCategory("Anki pictures")
		before := mediaStored()
		data := apkg(ankifixtures.Package{DeckName: "Pictures", Notes: []ankifixtures.Note{
			{Model: ankifixtures.Basic, Fields: []string{`What is shown?<br><img src="heart.png">`, "A heart"}, Ords: []int{0}},
			{Model: ankifixtures.Reversed, Fields: []string{"Sinus rhythm", `Regular P waves <img src='ecg &amp; co.png'>`}, Ords: []int{0, 1}},
			{Model: ankifixtures.Basic, Fields: []string{`<img src="heart.png">`, "Again the heart"}, Ords: []int{0}},
			{Model: ankifixtures.Basic, Fields: []string{`<img src="gone.png">`, "Missing"}, Ords: []int{0}},
		}, Media: map[string]string{"0": "heart.png", "1": "ecg & co.png", "2": "unused.png"},
			Files: map[string][]byte{"0": heart, "1": ecg, "2": pngOf(99)}})
		res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
		Expect(res).To(HaveStatus(201))
		body := res.Map()
		Expect(body["notes"]).To(BeNumerically("==", 3))
		Expect(body["cards"]).To(BeNumerically("==", 4))
		Expect(body["refused"]).To(Equal([]any{map[string]any{"item": 4.0, "name": "Basic",
			"reason": `its image "gone.png" is not in the package's media`}}))
		deck := int64(body["deck_id"].(float64))
		Expect(pictures(deck)).To(ConsistOf(
			[4]any{"image", "What is shown?", "A heart", heart},
			[4]any{"reversed", "Sinus rhythm", "Regular P waves", ecg},
			[4]any{"reversed", "Regular P waves", "Sinus rhythm", ecg},
			[4]any{"image", "", "Again the heart", heart},
		))
		// Two pictures stored once each (the unused file is not read).
		after := mediaStored()
		Expect(after[2:]).To(Equal([]int{before[2] + 2, before[3] + 2}))
		Expect(count(`SELECT count(*) FROM media.assets a JOIN flashcards.cards c ON c.picture_id = a.id
			WHERE c.deck_id = ? AND a.kind = 'image' AND a.content_type = 'image/png' AND a.created_by = ?`, deck, mod.ID)).To(Equal(4))

		legacy := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg?layout=legacy", deck))
		Expect(legacy).To(HaveStatus(200))
		Expect(legacy.Header.Get("X-Cards-Left-Out")).To(Equal("0"))
		zr, err := zip.NewReader(bytes.NewReader(legacy.Body), int64(len(legacy.Body)))
		Expect(err).NotTo(HaveOccurred())
		entries := map[string][]byte{}
		for _, f := range zr.File {
			rc, err := f.Open()
			Expect(err).NotTo(HaveOccurred())
			entries[f.Name], _ = io.ReadAll(rc)
			rc.Close()
		}
		var media map[string]string
		Expect(json.Unmarshal(entries["media"], &media)).To(Succeed())
		Expect(media).To(HaveLen(2))
		for k, name := range media {
			Expect(name).To(MatchRegexp(`^rounds-\d+\.png$`))
			Expect([][]byte{heart, ecg}).To(ContainElement(entries[k]))
		}

		for _, body := range [][]byte{legacy.Body, mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg", deck)).Body} {
			again := importApkg(mod, fmt.Sprintf("category_id=%d&title=Again", cat), body)
			Expect(again).To(HaveStatus(201))
			Expect(again.Map()["refused"]).To(BeEmpty())
			Expect(pictures(int64(again.Map()["deck_id"].(float64)))).To(ConsistOf(pictures(deck)))
		}
	})

	It("makes an image occlusion note one image card per hidden shape, the shapes the picture's overlay", func() {
		cat := newCategory("Anki occlusion")
		img := image.NewRGBA(image.Rect(0, 0, 200, 100))
		var pic bytes.Buffer
		Expect(png.Encode(&pic, img)).To(Succeed())
		occlusion := `{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}` +
			`{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}{{c3::image-occlusion:text:left=.7:top=.7:text=x}}`
		data := apkg(ankifixtures.Package{DeckName: "Occlusion", Notes: []ankifixtures.Note{{Model: ankifixtures.Occlusion,
			Fields: []string{occlusion, `<img src="heart.png">`, "Name the chamber", "", ""}, Ords: []int{0, 1}}},
			Media: map[string]string{"0": "heart.png"}, Files: map[string][]byte{"0": pic.Bytes()}})
		res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["cards"]).To(BeNumerically("==", 2))
		Expect(res.Map()["mapped"]).To(ConsistOf(HaveKeyWithValue("as", "image")))
		cards := deckCards(int64(res.Map()["deck_id"].(float64)))
		Expect(cards).To(HaveLen(2))
		for i, want := range []map[string]any{
			{"kind": "rect", "x": 20.0, "y": 20.0, "w": 60.0, "h": 10.0, "label": "Area 1"},
			{"kind": "ellipse", "x": 100.0, "y": 50.0, "w": 40.0, "h": 10.0, "label": "Area 2"},
		} {
			Expect(cards[i]["card_type"]).To(Equal("image"))
			Expect(cards[i]["front"]).To(Equal("Name the chamber"))
			Expect(cards[i]["back"]).To(Equal(want["label"]))
			Expect(cards[i]["mask"]).To(Equal(want))
			Expect(pictureBytes(int64(cards[i]["picture_id"].(float64)))).To(Equal(pic.Bytes()))
		}
		Expect(count(`SELECT jsonb_array_length(overlay) FROM media.assets WHERE id = ?`, int64(cards[0]["picture_id"].(float64)))).To(Equal(2))
	})

	DescribeTable("refuses hostile media with nothing stored",
		func(data func() []byte, status int, code, message string) {
			cat := refusedCategory()
			before := mediaStored()
			res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data())
			Expect(res).To(HaveError(status, code))
			Expect(res.Map()["error"].(map[string]any)["message"]).To(ContainSubstring(message))
			Expect(mediaStored()).To(Equal(before))
		},
		Entry("a zip bomb as a picture", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{{Model: ankifixtures.Basic,
				Fields: []string{`<img src="bomb.png">`, "b"}, Ords: []int{0}}},
				Media: map[string]string{"0": "bomb.png"}, Files: map[string][]byte{"0": append(pngOf(1), make([]byte, 16<<20)...)}})
		}, 413, "too_large", `media file "bomb.png" unpacks to more than`),
		Entry("path traversal as a media name", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{{Model: ankifixtures.Basic,
				Fields: []string{`<img src="../x.png">`, "b"}, Ords: []int{0}}},
				Media: map[string]string{"0": "../x.png"}, Files: map[string][]byte{"0": pngOf(1)}})
		}, 422, "invalid_request", "not paths"),
		Entry("an absolute media name", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{basicNote},
				Media: map[string]string{"0": "/etc/passwd"}, Files: map[string][]byte{"0": pngOf(1)}})
		}, 422, "invalid_request", "not paths"),
		Entry("a NUL in a media name", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{basicNote},
				Media: map[string]string{"0": "a\x00.png"}, Files: map[string][]byte{"0": pngOf(1)}})
		}, 422, "invalid_request", "not paths"),
		Entry("a media map pointing to a missing file", func() []byte {
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{basicNote}, Media: map[string]string{"0": "heart.png"}})
		}, 400, "bad_request", `names file 0 ("heart.png"), which the package does not hold`),
		Entry("an oversized media map", func() []byte {
			return apkg(ankifixtures.Package{Layout: ankifixtures.Legacy1, Notes: []ankifixtures.Note{basicNote},
				Files: map[string][]byte{"media": []byte(`{"0": "` + strings.Repeat("a", maxMediaMapBytes) + `"}`)}})
		}, 413, "too_large", "the media map unpacks to more than"),
		Entry("a picture that is not one whole (every note's picture is checked before any is stored)", func() []byte {
			whole, broken := pngOf(5), pngOf(6)
			return apkg(ankifixtures.Package{Notes: []ankifixtures.Note{
				{Model: ankifixtures.Basic, Fields: []string{`<img src="whole.png">`, "b"}, Ords: []int{0}},
				{Model: ankifixtures.Basic, Fields: []string{`<img src="broken.png">`, "b"}, Ords: []int{0}}},
				Media: map[string]string{"0": "whole.png", "1": "broken.png"},
				Files: map[string][]byte{"0": whole, "1": broken[:len(broken)/2]}})
		}, 422, "invalid_request", `image "broken.png"`),
	)

	It("removes the stored pictures again when the deck is rolled back", func() {
		cat := refusedCategory()
		before := mediaStored()
		data := apkg(ankifixtures.Package{Notes: []ankifixtures.Note{{Model: ankifixtures.Cloze,
			Fields: []string{`An {{c1::unclosed <img src="a.png">`, ""}, Ords: []int{0}}},
			Media: map[string]string{"0": "a.png"}, Files: map[string][]byte{"0": heart}})
		res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), data)
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(mediaStored()).To(Equal(before))
	})
})
