package flashcards_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/roundsedu/rounds/e2e/fixtures"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

var pictureSeq int

// occlusion is an image card's occlusion (contract.None and contract.Each
// are bare names that a later enum holding the same value would rename).
type occlusion = contract.PostFlashcardsDecksByDeckIdCardsRequestOcclusion

// upload stores a file as a figure of a fresh draft article (a draft's
// figure is shown to no learner by the library, so only a deck can open
// it to them) and gives the asset.
func upload(data []byte, name string) contract.AssetResponse {
	pictureSeq++
	res := mod.Client(h).Post(api+"/articles/", map[string]any{"title": fmt.Sprintf("Card pictures %d", pictureSeq),
		"status": "draft", "sections": []map[string]any{{"id": "intro", "heading": "Intro", "markdown": "Text."}}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	Expect(w.WriteField("section_id", "intro")).To(Succeed())
	Expect(w.WriteField("caption", "A picture")).To(Succeed())
	fw, err := w.CreateFormFile("file", name)
	Expect(err).NotTo(HaveOccurred())
	_, _ = fw.Write(data)
	Expect(w.Close()).To(Succeed())
	article := res.ID()
	res = mod.Client(h).With("Content-Type", w.FormDataContentType()).
		Post(fmt.Sprintf("%s/articles/%d/figures/image", api, article), buf.Bytes())
	ExpectWithOffset(1, res).To(HaveStatus(201))
	fig := Body[contract.FigureResponse](res)
	ExpectWithOffset(1, fig).To(MatchFields(IgnoreExtras, Fields{"ArticleId": Equal(article), "SectionId": Equal("intro")}))
	return fig.Asset
}

// picture uploads a 40×30 PNG with the given overlay shapes.
func picture(shapes ...contract.Shape) (int64, string) {
	var buf bytes.Buffer
	Expect(png.Encode(&buf, image.NewGray(image.Rect(0, 0, 40, 30)))).To(Succeed())
	a := upload(buf.Bytes(), "p.png")
	if len(shapes) > 0 {
		Expect(mod.Client(h).Put(fmt.Sprintf("%s/media/%d/overlay", api, a.Id), contract.PutMediaByAssetIdOverlayRequest{Shapes: &shapes})).
			To(HaveStatus(200))
	}
	return a.Id, a.Url
}

// clip uploads a silent MP4 (one video track).
func clip() int64 {
	bx := func(typ string, parts ...[]byte) []byte {
		body := bytes.Join(parts, nil)
		return append(append(binary.BigEndian.AppendUint32(nil, uint32(8+len(body))), typ...), body...)
	}
	hdlr := bx("hdlr", make([]byte, 8), []byte("vide"), make([]byte, 13))
	mp4 := append(bx("ftyp", []byte("isom"), []byte{0, 0, 2, 0}, []byte("isomiso2mp41")), bx("moov", bx("trak", bx("mdia", hdlr)))...)
	return upload(mp4, "c.mp4").Id
}

type pictureRow struct {
	CardType  string
	Back      string
	PictureID *int64
	Mask      *string
}

func storedPictureCards(d int64) []pictureRow {
	var rows []pictureRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT card_type, back, picture_id, mask::text AS mask
		FROM flashcards.cards WHERE deck_id = ? ORDER BY id`, d).Scan(&rows).Error).To(Succeed())
	return rows
}

// maskOf is a stored card's mask, read as the contract's Mask (every key
// the row holds must be one of its fields).
func maskOf(r pictureRow) contract.Mask {
	var m contract.Mask
	ExpectWithOffset(1, r.Mask).NotTo(BeNil())
	dec := json.NewDecoder(strings.NewReader(*r.Mask))
	dec.DisallowUnknownFields()
	ExpectWithOffset(1, dec.Decode(&m)).To(Succeed())
	return m
}

var _ = Describe("Image cards", func() {
	It("stores a plain image card with its picture, which needs a back", func() {
		d := deck(mod, "Plain pictures", category(0))
		pid, _ := picture()
		Expect(addCard(mod, d, cardBody{CardType: "image", Front: "Name the sign", PictureId: &pid})).
			To(HaveError(422, "invalid_request"))
		res := addCard(mod, d, cardBody{CardType: "image", Front: "Name the sign", Back: new("Silhouette sign"), PictureId: &pid})
		Expect(res).To(HaveStatus(201))
		count, cards := added(res)
		Expect(count).To(BeEquivalentTo(1))
		// The contract types mask as an object, not nullable (huma leaves a
		// pointer to a struct so), so a null mask reads as the zero Mask; the
		// row below holds no mask at all.
		Expect(cards).To(HaveExactElements(MatchFields(IgnoreExtras, Fields{"CardType": Equal("image"),
			"Back": Equal("Silhouette sign"), "PictureId": HaveValue(Equal(pid)), "Mask": BeZero()})))
		Expect(storedPictureCards(d)).To(Equal([]pictureRow{{CardType: "image", Back: "Silhouette sign", PictureID: &pid}}))
	})

	It("makes one card per overlay shape, each hiding its shape and answered by its label", func() {
		d, _ := sharedDeck("Occlusion")
		pid, _ := picture(contract.Shape{Kind: "rect", X: new(2.0), Y: new(3.0), W: new(10.0), H: new(8.0), Label: new("Left atrium")},
			contract.Shape{Kind: "ellipse", X: new(25.0), Y: new(15.0), W: new(6.0), H: new(6.0)},
			contract.Shape{Kind: "polygon", Points: &[][]float64{{1, 1}, {5, 1}, {3, 4}}, Label: new("Apex")})
		Expect(addCard(mod, d, cardBody{CardType: "image", Front: "Name the part", PictureId: &pid})).
			To(HaveError(422, "invalid_request"), "the unlabelled shape needs the card's back")
		Expect(storedPictureCards(d)).To(BeEmpty())

		res := addCard(mod, d, cardBody{CardType: "image", Front: "Name the part", Back: new("Right ventricle"), PictureId: &pid})
		Expect(res).To(HaveStatus(201))
		count, cards := added(res)
		Expect(count).To(BeEquivalentTo(3))
		rect := contract.Mask{Kind: "rect", X: new(2.0), Y: new(3.0), W: new(10.0), H: new(8.0), Label: new("Left atrium")}
		ellipse := contract.Mask{Kind: "ellipse", X: new(25.0), Y: new(15.0), W: new(6.0), H: new(6.0)}
		polygon := contract.Mask{Kind: "polygon", Points: &[]*[]float64{{1, 1}, {5, 1}, {3, 4}}, Label: new("Apex")}
		var masks []contract.Mask
		for _, c := range cards {
			masks = append(masks, c.Mask)
		}
		Expect(masks).To(Equal([]contract.Mask{rect, ellipse, polygon}))
		rows := storedPictureCards(d)
		Expect(rows).To(HaveLen(3))
		Expect([]string{rows[0].Back, rows[1].Back, rows[2].Back}).To(Equal([]string{"Left atrium", "Right ventricle", "Apex"}))
		Expect([]contract.Mask{maskOf(rows[0]), maskOf(rows[1]), maskOf(rows[2])}).To(Equal([]contract.Mask{rect, ellipse, polygon}))

		// The learner's queue carries the mask to hide on the question side.
		its := items(queue(h.NewUser(auth.RoleUser), d))
		Expect(its).To(HaveLen(3))
		Expect(its[0]).To(MatchFields(IgnoreExtras, Fields{"PictureId": HaveValue(Equal(pid)), "Answer": Equal("Left atrium"),
			"Mask": Equal(rect)}))

		// Editing the overlay later leaves the cards' masks as they were made.
		Expect(mod.Client(h).Put(fmt.Sprintf("%s/media/%d/overlay", api, pid), contract.PutMediaByAssetIdOverlayRequest{Shapes: &[]contract.Shape{}})).
			To(HaveStatus(200))
		Expect(maskOf(storedPictureCards(d)[0])).To(Equal(rect))
	})

	It("makes a single card of the whole picture with occlusion none, and refuses each without shapes", func() {
		d := deck(mod, "Whole picture", category(0))
		withShapes, _ := picture(contract.Shape{Kind: "rect", X: new(1.0), Y: new(1.0), W: new(2.0), H: new(2.0), Label: new("Hilum")})
		res := addCard(mod, d, cardBody{CardType: "image", Front: "What is it?", Back: new("Chest film"),
			PictureId: &withShapes, Occlusion: new(occlusion("none"))})
		Expect(res).To(HaveStatus(201))
		count, cards := added(res)
		Expect(count).To(BeEquivalentTo(1))
		Expect(cards).To(HaveExactElements(MatchFields(IgnoreExtras, Fields{"Back": Equal("Chest film"), "Mask": BeZero()})))
		plain, _ := picture()
		Expect(addCard(mod, d, cardBody{CardType: "image", Front: "Q", Back: new("A"), PictureId: &plain,
			Occlusion: new(occlusion("each"))})).To(HaveError(422, "invalid_request"))
		Expect(addCard(mod, d, cardBody{CardType: "basic", Front: "Q", Back: new("A"), Occlusion: new(occlusion("none"))})).
			To(HaveError(422, "invalid_request"))
		Expect(storedPictureCards(d)).To(HaveLen(1))
	})

	It("refuses a missing or binned asset as not found, a video as no picture, and stores nothing", func() {
		d := deck(mod, "Bad pictures", category(0))
		binned, _ := picture()
		Expect(mod.Client(h).Delete(fmt.Sprintf("%s/media/%d", api, binned))).To(HaveStatus(200))
		for what, pid := range map[string]int64{"missing": 999999, "binned": binned} {
			Expect(addCard(mod, d, cardBody{CardType: "image", Front: "Q", Back: new("A"), PictureId: &pid})).
				To(HaveError(404, "not_found"), what)
		}
		res := addCard(mod, d, cardBody{CardType: "image", Front: "Q", Back: new("A"), PictureId: new(clip())})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(string(res.Body)).To(ContainSubstring("picture_id"))
		Expect(storedPictureCards(d)).To(BeEmpty())
	})

	It("takes on a card only a picture its editor may already see, and exports no other", func() {
		hidden := fixtures.HiddenAssets(h, mod)
		d := deck(mod, "Grant holder's pictures", category(0))
		holder := h.NewUser(auth.RoleUser)
		grant(holder, "deck", d)
		var first []byte
		for name, a := range hidden {
			res := addCard(holder, d, cardBody{CardType: "image", Front: "Q", Back: new("A"), PictureId: &a.ID})
			Expect(res).To(HaveError(404, "not_found"), name)
			if first == nil {
				first = res.Body
			}
			Expect(res.Body).To(MatchJSON(first), "%s answers unlike the others", name)
			Expect(holder.Client(h).Get(a.URL).Status).To(BeElementOf(403, 404), "/uploads of %s", name)
		}
		Expect(storedPictureCards(d)).To(BeEmpty())

		// A published article's figure is seen by every reader: it may go
		// on a card, and it is the one picture the deck's package carries.
		seen := fixtures.Figure(h, mod, fixtures.Article(h, mod, "published", 0), "intro")
		Expect(addCard(holder, d, cardBody{CardType: "image", Front: "Q", Back: new("A"), PictureId: &seen.ID})).
			To(HaveStatus(201))
		exp := holder.Client(h).Get(fmt.Sprintf("%s/flashcard-decks/%d/export/apkg", api, d))
		Expect(exp).To(HaveStatus(200))
		zr, err := zip.NewReader(bytes.NewReader(exp.Body), int64(len(exp.Body)))
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		// The latest layout (meta, the real collection, the decoy for old
		// Ankis, the media map) and one picture: the figure.
		Expect(names).To(ConsistOf("meta", "collection.anki21b", "collection.anki2", "media", "0"))
	})

	It("serves a card's picture and its thumbnail to whoever may study the deck, and to nobody else", func() {
		d := deck(mod, "Pictures to fetch", category(0))
		pid, url := picture()
		Expect(addCard(mod, d, cardBody{CardType: "image", Front: "Q", Back: new("A"), PictureId: &pid})).
			To(HaveStatus(201))
		holder, outsider := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		grant(holder, "deck", d)

		// Unshared: the grant holder studies it, the outsider does not.
		Expect(holder.Client(h).Get(url)).To(HaveStatus(200))
		Expect(holder.Client(h).Get(url + "?w=256")).To(HaveStatus(200))
		Expect(outsider.Client(h).Get(url)).To(HaveError(404, "not_found"))
		Expect(outsider.Client(h).Get(url + "?w=256")).To(HaveError(404, "not_found"))

		// Shared site-wide: every learner studies it.
		Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
		res := outsider.Client(h).Get(url)
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Content-Type")).To(Equal("image/png"))

		// Binned: the deck no longer opens it.
		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		Expect(outsider.Client(h).Get(url)).To(HaveError(404, "not_found"))
		Expect(holder.Client(h).Get(url)).To(HaveError(404, "not_found"))
	})
})
