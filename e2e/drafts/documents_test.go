package drafts_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/storage"
)

var _ = Describe("Uploading a document", func() {
	var mod *harness.User
	BeforeEach(func() { mod = moderator(h) })

	It("stores the PDF, answers processing, and process_pdf records every page", func() {
		res := upload(h, mod, "cardiology.pdf", pdffixtures.QuestionPaper())
		Expect(res).To(HaveStatus(201))
		doc := Body[contract.DocumentResponse](res)
		Expect(doc.Status).To(Equal(contract.DocumentResponseStatusProcessing))
		Expect(doc.OriginalFilename).To(Equal("cardiology.pdf"))
		Expect(doc.Filename).To(HaveSuffix(".pdf"))
		Expect(doc.Filename).NotTo(Equal("cardiology.pdf"))
		Expect(doc.UserId).To(Equal(mod.ID))
		Expect(doc.ErrorMessage).To(BeNil())
		id := doc.Id

		Expect(waitDocument(h, mod, id).Status).To(Equal(contract.StatusResponseStatusReady))
		st := Exact[contract.StatusResponse](mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d/status", id)))
		Expect(st).To(Equal(contract.StatusResponse{Id: id, Status: contract.StatusResponseStatusReady,
			TotalPages: int64(len(pdffixtures.PaperPages)), ErrorMessage: nil}))
		Expect(count(h, `SELECT count(*) FROM drafts.document_pages WHERE document_id = ?`, id)).
			To(Equal(len(pdffixtures.PaperPages)))
		var page2 string
		Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT text FROM drafts.document_pages
			WHERE document_id = ? AND page_number = 2`, id).Scan(&page2).Error).To(Succeed())
		Expect(page2).To(Equal(strings.Join(pdffixtures.PaperPages[1], "\n")))

		Expect(stepNames(h, mod, id)).To(Equal([]string{"uploaded", "queued", "reading pages", "text extracted", "ready"}))

		detail := documentOf(h, mod, id)
		Expect(detail.Sections).To(HaveValue(BeEmpty()))
		Expect(detail.TotalPages).To(BeEquivalentTo(4))
	})

	DescribeTable("refuses a file that is not a readable PDF, by its bytes, creating nothing",
		func(name string, file func() []byte, code, why string) {
			before := count(h, `SELECT count(*) FROM drafts.documents`)
			res := upload(h, mod, name, file())
			Expect(res).To(HaveError(400, code))
			Expect(message(res)).To(ContainSubstring(why))
			Expect(count(h, `SELECT count(*) FROM drafts.documents`)).To(Equal(before))
			Expect(storedFiles()).To(Equal(count(h, `SELECT count(*) FROM drafts.documents`)))
		},
		Entry("an image renamed .pdf", "scan.pdf", pdffixtures.NotAPDF, "bad_request", "not a PDF"),
		Entry("a malformed PDF", "broken.pdf", pdffixtures.Malformed, "bad_request", "damaged"),
		Entry("a PDF that needs a password", "locked.pdf", func() []byte {
			b, err := pdffixtures.EncryptedLocked("AES-256")
			Expect(err).NotTo(HaveOccurred())
			return b
		}, "bad_request", "needs a password to open"),
		Entry("a PDF with no pages", "empty.pdf", pdffixtures.ZeroPages, "bad_request", "no pages"),

		Entry("an empty file", "nothing.pdf", func() []byte { return nil }, "bad_request", "empty"),
		Entry("a file one byte over MAX_UPLOAD_SIZE", "big.pdf", func() []byte { return pdffixtures.Sized(uploadLimit + 1) },
			"bad_request", "larger than the upload limit"),
	)

	It("answers 400 to a file far over the limit without reading all of it", func() {
		res := upload(h, mod, "huge.pdf", pdffixtures.Sized(uploadLimit*40))
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring("larger than the upload limit of 256.0 KiB"))
		body, ct := Form("file", "paper.pdf", pdffixtures.QuestionPaper(),
			map[string]string{"padding": strings.Repeat("x", uploadLimit+(2<<20))})
		Expect(mod.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)).To(HaveError(400, "bad_request"))
	})

	It("accepts a PDF of exactly MAX_UPLOAD_SIZE", func() {
		res := upload(h, mod, "edge.pdf", pdffixtures.Sized(uploadLimit))
		Expect(res).To(HaveStatus(201))
		doc := Body[contract.DocumentResponse](res)
		Expect(doc.SizeBytes).To(BeEquivalentTo(uploadLimit))
		Expect(waitDocument(h, mod, doc.Id).Status).To(Equal(contract.StatusResponseStatusReady))
	})

	It("does not trust the file name: a real PDF named .txt is accepted", func() {
		res := upload(h, mod, "paper.txt", pdffixtures.QuestionPaper())
		Expect(res).To(HaveStatus(201))
		Expect(Body[contract.DocumentResponse](res).OriginalFilename).To(Equal("paper.txt"))
	})

	It("refuses a body that is not multipart, or has no file field (422)", func() {
		Expect(mod.Client(h).Post("/api/v1/documents/upload", map[string]any{"file": "x"})).
			To(HaveError(422, "invalid_request"))
		body, ct := Form("", "", nil, map[string]string{"title": "no file here"})
		Expect(mod.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)).
			To(HaveError(422, "invalid_request"))
		body, ct = Form("document", "paper.pdf", pdffixtures.QuestionPaper(), nil)
		Expect(mod.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)).
			To(HaveError(422, "invalid_request"))
		body, ct = Form("", "", nil, map[string]string{"file": "%PDF-1.4 typed into a text field"})
		res := mod.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(message(res)).To(ContainSubstring("must carry a file"))
	})

	It("ignores other form fields beside the file", func() {
		body, ct := Form("file", "paper.pdf", pdffixtures.QuestionPaper(), map[string]string{"note": "hello"})
		Expect(mod.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)).To(HaveStatus(201))
	})

	It("is for moderators only", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(upload(h, learner, "paper.pdf", pdffixtures.QuestionPaper())).To(HaveError(403, "forbidden"))
		body, ct := Form("file", "paper.pdf", pdffixtures.QuestionPaper(), nil)
		Expect(h.Anon().With("Content-Type", ct).Post("/api/v1/documents/upload", body)).
			To(HaveError(401, "unauthenticated"))
		admin := h.NewUser(auth.RoleAdmin)
		Expect(upload(h, admin, "paper.pdf", pdffixtures.QuestionPaper())).To(HaveStatus(201))
	})
})

// storedFiles counts the files under the suite's documents folder.
func storedFiles() int {
	dir := strings.TrimPrefix(h.Config.Storage.URL, "file://")
	matches, err := filepath.Glob(filepath.Join(dir, "documents", "*.pdf"))
	Expect(err).NotTo(HaveOccurred())
	return len(matches)
}

var _ = Describe("Reading documents", func() {
	It("shows moderators every document and anyone else only their own", func() {
		mod := moderator(h)
		mine := uploadReady(h, mod)
		other := uploadReady(h, moderator(h))

		// A moderator demoted to learner keeps seeing what they uploaded.
		Expect(h.App.DB.Conn(context.Background()).Exec(`UPDATE identity.users SET role = 'user' WHERE id = ?`,
			mod.ID).Error).To(Succeed())
		Expect(ids(documents(mod, ""), documentID)).To(Equal([]int64{mine}))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d", mine))).To(HaveStatus(200))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d", other))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d/status", mine))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d/processing-steps", mine))).To(HaveError(403, "forbidden"))

		Expect(ids(documents(moderator(h), "?limit=200"), documentID)).To(ContainElements(mine, other))
	})

	It("pages the listing newest first", func() {
		mod := moderator(h)
		a, b := uploadReady(h, mod), uploadReady(h, mod)
		Expect(documents(mod, "?limit=1")).To(HaveLen(1))
		Expect(ids(documents(mod, "?limit=2"), documentID)).To(Equal([]int64{b, a}))
		Expect(ids(documents(mod, "?limit=1&offset=1"), documentID)).To(Equal([]int64{a}))
		Expect(mod.Client(h).Get("/api/v1/documents/?limit=500")).To(HaveError(422, "invalid_request"))
	})

	It("answers 404 for a document that does not exist", func() {
		mod := moderator(h)
		for _, p := range []string{"", "/status", "/processing-steps"} {
			Expect(mod.Client(h).Get("/api/v1/documents/999999" + p)).To(HaveError(404, "not_found"))
		}
		Expect(mod.Client(h).Delete("/api/v1/documents/999999")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/documents/999999/reprocess", nil)).To(HaveError(404, "not_found"))
	})

	It("counts documents for dashboards through the facade", func() {
		before, err := app.Lookup[*drafts.Module](h.App).CountDocuments(context.Background())
		Expect(err).NotTo(HaveOccurred())
		uploadReady(h, moderator(h))
		after, err := app.Lookup[*drafts.Module](h.App).CountDocuments(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(after).To(Equal(before + 1))
	})
})

var _ = Describe("Deleting a document", func() {
	It("removes the file, pages and sections, and leaves extracted drafts for review", func() {
		mod := moderator(h)
		doc := uploadReady(h, mod)
		sec := section(h, mod, doc, "All questions", 1, 3)
		batch := batchOfJob(waitJob(h, mod, extract(h, mod, contract.ExtractInBody{SectionId: sec})))
		var key string
		Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT storage_key FROM drafts.documents WHERE id = ?`, doc).
			Scan(&key).Error).To(Succeed())
		_, err := h.App.Storage.Size(context.Background(), key)
		Expect(err).NotTo(HaveOccurred(), "the uploaded file is stored")

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d", doc))).To(HaveStatus(204))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d", doc))).To(HaveError(404, "not_found"))
		_, err = h.App.Storage.Size(context.Background(), key)
		Expect(err).To(MatchError(storage.ErrNotFound), "the file is removed")
		Expect(count(h, `SELECT count(*) FROM drafts.document_pages WHERE document_id = ?`, doc)).To(BeZero())
		Expect(count(h, `SELECT count(*) FROM drafts.sections WHERE document_id = ?`, doc)).To(BeZero())

		Expect(batchOf(mod, batch).Source).To(ContainSubstring("cardiology.pdf, All questions (pages 1-3)"))
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(pdffixtures.PaperQuestions))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d", doc))).To(HaveError(404, "not_found"))
	})

	It("is for moderators only", func() {
		doc := uploadReady(h, moderator(h))
		Expect(h.NewUser(auth.RoleUser).Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d", doc))).
			To(HaveError(403, "forbidden"))
	})
})

// documents lists the documents u sees (query: "?limit=...", or "").
func documents(u *harness.User, query string) []contract.DocumentResponse {
	res := u.Client(h).Get("/api/v1/documents/" + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[[]contract.DocumentResponse](res)
}

// documentOf reads a document with its sections.
func documentOf(hh *harness.Harness, u *harness.User, id int64) contract.DocumentDetail {
	res := u.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d", id))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[contract.DocumentDetail](res)
}
