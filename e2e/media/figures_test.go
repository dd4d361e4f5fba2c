package media_test

import (
	"bytes"
	"mime/multipart"
	"net/textproto"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Figure uploads", func() {
	It("stores a still, writes its line into the section, records the link, snapshots a revision", func() {
		id := article("published")
		revs := scalar[int64](`SELECT count(*) FROM library.revisions WHERE article_id = ?`, id)
		res := upload(mod, id, pngOf(40, 30), "scan.png", fields("findings", "Chest film [PA]", "modality", "radiograph"))
		Expect(res).To(HaveStatus(201))
		a := res.Map()["asset"].(map[string]any)
		key := a["path"].(string)
		Expect(key).To(HavePrefix("media/"))
		Expect(a["kind"]).To(Equal("image"))
		Expect(a["content_type"]).To(Equal("image/png"))
		Expect(a["alt_text"]).To(Equal("Chest film [PA]"))
		Expect(a["width"]).To(BeNumerically("==", 40))
		Expect(markdown(id, "findings")).To(Equal("What is seen.\n\n![Chest film \\[PA\\]](/uploads/" + key + ")"))
		Expect(scalar[string](`SELECT path FROM library.figures WHERE article_id = ? AND section_key = 'findings'`, id)).To(Equal(key))
		Expect(scalar[int64](`SELECT count(*) FROM library.revisions WHERE article_id = ?`, id)).To(Equal(revs + 1))
		Expect(scalar[string](`SELECT html FROM library.sections WHERE article_id = ? AND key = 'findings'`, id)).
			To(ContainSubstring(`<img src="/uploads/` + key + `" alt="Chest film [PA]">`))

		gallery := mod.Client(h).Get(path("/articles/%d/figures", id))
		Expect(gallery).To(HaveStatus(200))
		Expect(gallery.List()).To(HaveLen(1))
	})

	It("refuses a second figure on a section unless replace=true, which swaps the line", func() {
		id := article("draft")
		first := upload(mod, id, pngOf(10, 10), "a.png", fields("intro", "First"))
		Expect(first).To(HaveStatus(201))
		before := assets()
		Expect(upload(mod, id, pngOf(12, 12), "b.png", fields("intro", "Second"))).To(HaveError(409, "conflict"))
		Expect(assets()).To(Equal(before))
		second := upload(mod, id, pngOf(12, 12), "b.png", fields("intro", "Second", "replace", "true"))
		Expect(second).To(HaveStatus(201))
		md := markdown(id, "intro")
		Expect(md).To(ContainSubstring(second.Map()["asset"].(map[string]any)["path"].(string)))
		Expect(md).NotTo(ContainSubstring(first.Map()["asset"].(map[string]any)["path"].(string)))
		Expect(scalar[int64](`SELECT count(*) FROM library.figures WHERE article_id = ?`, id)).To(Equal(int64(1)))
	})

	It("lists the gallery in the order of the markdown, and keeps link rows in step with edits", func() {
		id := article("published")
		Expect(upload(mod, id, pngOf(8, 8), "f.png", fields("findings", "Later"))).To(HaveStatus(201))
		Expect(upload(mod, id, pngOf(8, 8), "i.png", fields("intro", "Earlier"))).To(HaveStatus(201))
		g := mod.Client(h).Get(path("/articles/%d/figures", id)).List()
		Expect(g).To(HaveLen(2))
		Expect(g[0].(map[string]any)["section_id"]).To(Equal("intro"))
		Expect(g[1].(map[string]any)["section_id"]).To(Equal("findings"))

		// An editor deleting the line by hand drops the link row.
		Expect(mod.Client(h).Patch(path("/articles/%d", id), q{"sections": []q{
			{"id": "intro", "heading": "Intro", "markdown": "No picture now."},
			{"id": "findings", "heading": "Findings", "markdown": markdown(id, "findings")}}})).To(HaveStatus(200))
		Expect(scalar[int64](`SELECT count(*) FROM library.figures WHERE article_id = ?`, id)).To(Equal(int64(1)))
	})

	It("places an existing asset on another article's section", func() {
		src := article("published")
		up := upload(mod, src, pngOf(8, 8), "x.png", fields("intro", "Shared"))
		Expect(up).To(HaveStatus(201))
		assetID := up.Map()["asset"].(map[string]any)["id"]
		dst := article("published")
		Expect(mod.Client(h).Post(path("/articles/%d/figures/existing", dst), q{"asset_id": assetID, "section_id": "findings"})).
			To(HaveStatus(201))
		Expect(markdown(dst, "findings")).To(ContainSubstring(up.Map()["asset"].(map[string]any)["path"].(string)))
		Expect(mod.Client(h).Post(path("/articles/%d/figures/existing", dst), q{"asset_id": assetID, "section_id": "nope"})).
			To(HaveError(422, "invalid_request"))
	})

	It("lets a grant holder add figures to their article and refuses a learner", func() {
		id := article("published")
		holder := h.NewUser(auth.RoleUser)
		Expect(mod.Client(h).Post(path("/access/%d/grants", holder.ID), q{"kind": "article", "target_id": id})).To(HaveStatus(201))
		Expect(upload(holder, id, pngOf(8, 8), "g.png", fields("intro", "By a grant holder"))).To(HaveStatus(201))
		learner := h.NewUser(auth.RoleUser)
		before := assets()
		Expect(upload(learner, id, pngOf(8, 8), "l.png", fields("findings", "Nope"))).To(HaveError(403, "forbidden"))
		Expect(assets()).To(Equal(before))
	})

	It("accepts a silent MP4 and a silent WebM", func() {
		id := article("draft")
		res := upload(mod, id, mp4("vide"), "clip.mp4", fields("intro", "Echo loop"))
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["asset"].(map[string]any)["kind"]).To(Equal("video"))
		res = upload(mod, id, webm(1), "clip.webm", fields("findings", "Doppler loop"))
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["asset"].(map[string]any)["content_type"]).To(Equal("video/webm"))
	})

	It("judges by bytes: a PNG named .mp4 and sent as video/mp4 is stored as a PNG", func() {
		id := article("draft")
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		Expect(w.WriteField("section_id", "intro")).To(Succeed())
		Expect(w.WriteField("caption", "Renamed")).To(Succeed())
		part, err := w.CreatePart(textproto.MIMEHeader{
			"Content-Disposition": {`form-data; name="file"; filename="really.mp4"`},
			"Content-Type":        {"video/mp4"}})
		Expect(err).NotTo(HaveOccurred())
		_, _ = part.Write(pngOf(8, 8))
		Expect(w.Close()).To(Succeed())
		res := mod.Client(h).With("Content-Type", w.FormDataContentType()).
			Post(path("/articles/%d/figures/image", id), buf.Bytes())
		Expect(res).To(HaveStatus(201))
		a := res.Map()["asset"].(map[string]any)
		Expect(a["content_type"]).To(Equal("image/png"))
		Expect(a["path"]).To(HaveSuffix(".png"))
	})

	// SOI, a JFIF APP0, then a baseline SOF declaring 60,000 × 60,000.
	hugeJPEG := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
		0x00, 0x01, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xEA, 0x60, 0xEA, 0x60, 0x03,
		0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9}
	DescribeTable("refuses hostile uploads with nothing stored",
		func(data func() []byte, f map[string]string, status int, code, msg string) {
			id := article("draft")
			before := assets()
			revs := scalar[int64](`SELECT count(*) FROM library.revisions WHERE article_id = ?`, id)
			res := upload(mod, id, data(), "file.bin", f)
			Expect(res).To(HaveError(status, code))
			Expect(string(res.Body)).To(ContainSubstring(msg))
			Expect(assets()).To(Equal(before))
			Expect(scalar[int64](`SELECT count(*) FROM library.revisions WHERE article_id = ?`, id)).To(Equal(revs))
			Expect(markdown(id, "intro")).To(Equal("Opening text."))
		},
		Entry("no caption", func() []byte { return pngOf(4, 4) }, fields("intro", "  "), 422, "invalid_request", "caption"),
		Entry("attribution licence without credit", func() []byte { return pngOf(4, 4) },
			fields("intro", "x", "license", "CC-BY 4.0"), 422, "invalid_request", "requires a credit"),
		Entry("GFDL without credit", func() []byte { return pngOf(4, 4) },
			fields("intro", "x", "license", "GFDL"), 422, "invalid_request", "requires a credit"),
		Entry("unknown modality", func() []byte { return pngOf(4, 4) },
			fields("intro", "x", "modality", "xray"), 422, "invalid_request", "modality"),
		Entry("unknown section", func() []byte { return pngOf(4, 4) }, fields("gone", "x"), 422, "invalid_request", "no section"),
		Entry("a JPEG declaring 60,000 × 60,000 pixels", func() []byte { return hugeJPEG }, fields("intro", "bomb"),
			422, "invalid_request", "60000×60000"),
		Entry("a text file", func() []byte { return []byte("hello, not an image") }, fields("intro", "x"),
			422, "invalid_request", "not a PNG"),
		Entry("an MP4 with an audio track", func() []byte { return mp4("vide", "soun") }, fields("intro", "x"),
			422, "invalid_request", "silent"),
		Entry("a WebM with an audio track", func() []byte { return webm(1, 2) }, fields("intro", "x"),
			422, "invalid_request", "silent"),
		Entry("a truncated MP4", func() []byte { b := mp4("vide"); return b[:len(b)-5] }, fields("intro", "x"),
			422, "invalid_request", "cannot be read"),
		Entry("a still over the still limit", func() []byte {
			return append(pngOf(4, 4), make([]byte, stillLimit)...)
		}, fields("intro", "x"), 400, "bad_request", "larger than the limit"),
		Entry("a file over the clip limit", func() []byte { return append(mp4("vide"), make([]byte, clipLimit)...) },
			fields("intro", "x"), 400, "bad_request", "larger than the limit"),
	)

	It("refuses a form without a file (422)", func() {
		id := article("draft")
		res := upload(mod, id, nil, "", fields("intro", "x"))
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(strings.ToLower(string(res.Body))).To(ContainSubstring("missing"))
	})
})
