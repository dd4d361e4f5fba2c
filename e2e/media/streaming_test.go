package media_test

import (
	"bytes"
	"mime/multipart"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("Streamed uploads", func() {
	// The upload is spooled to a temporary file: point TMPDIR at a
	// directory of this spec's own to see the spools come and go.
	var spools string
	BeforeEach(func() {
		spools = GinkgoT().TempDir()
		old, had := os.LookupEnv("TMPDIR")
		Expect(os.Setenv("TMPDIR", spools)).To(Succeed())
		DeferCleanup(func() {
			if had {
				_ = os.Setenv("TMPDIR", old)
			} else {
				_ = os.Unsetenv("TMPDIR")
			}
		})
	})
	left := func() []string {
		m, err := filepath.Glob(filepath.Join(spools, "rounds-upload-*"))
		Expect(err).NotTo(HaveOccurred())
		return m
	}

	It("stores a clip of exactly the limit whole, and leaves no spool behind", func() {
		id := article("draft")
		clip := append(mp4("vide"), make([]byte, clipLimit-len(mp4("vide")))...)
		res := upload(mod, id, clip, "c.mp4", fields("intro", "At the limit"))
		Expect(res).To(HaveStatus(201))
		a := res.Map()["asset"].(map[string]any)
		Expect(a).To(And(HaveKeyWithValue("byte_size", BeNumerically("==", clipLimit)), HaveKeyWithValue("kind", "video")))
		Expect(scalar[int64](`SELECT byte_size FROM media.assets WHERE id = ?`, a["id"])).To(BeNumerically("==", clipLimit))
		Expect(h.App.Storage.Size(ctxb, a["path"].(string))).To(BeNumerically("==", clipLimit))
		got := mod.Client(h).Get(a["url"].(string))
		Expect(got).To(HaveStatus(200))
		Expect(got.Body).To(Equal(clip))
		Expect(left()).To(BeEmpty())
	})

	It("refuses one byte over the clip limit, a still over its own, and a second file, storing nothing", func() {
		id := article("draft")
		before := assets()
		over := append(mp4("vide"), make([]byte, clipLimit+1-len(mp4("vide")))...)
		Expect(upload(mod, id, over, "c.mp4", fields("intro", "Over"))).To(HaveError(400, "bad_request"))
		still := append(pngOf(4, 4), make([]byte, stillLimit)...)
		Expect(upload(mod, id, still, "s.png", fields("intro", "Over"))).To(HaveError(400, "bad_request"))
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		Expect(w.WriteField("section_id", "intro")).To(Succeed())
		Expect(w.WriteField("caption", "Two files")).To(Succeed())
		for _, name := range []string{"a.png", "b.png"} {
			fw, err := w.CreateFormFile("file", name)
			Expect(err).NotTo(HaveOccurred())
			_, _ = fw.Write(pngOf(4, 4))
		}
		Expect(w.Close()).To(Succeed())
		res := mod.Client(h).With("Content-Type", w.FormDataContentType()).Post(path("/articles/%d/figures/image", id), buf.Bytes())
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(string(res.Body)).To(ContainSubstring("one file"))
		Expect(assets()).To(Equal(before))
		Expect(markdown(id, "intro")).To(Equal("Opening text."))
		Expect(left()).To(BeEmpty())
	})
})
