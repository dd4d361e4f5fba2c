package drafts_test

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/config"
)

// pageText reads what processing stored for one page.
func pageText(hh *harness.Harness, id int64, page int) string {
	var text string
	Expect(hh.App.DB.Conn(ctxb()).Raw(`SELECT text FROM drafts.document_pages WHERE document_id = ? AND page_number = ?`,
		id, page).Scan(&text).Error).To(Succeed())
	return text
}

// uploaded uploads a file, expects it accepted, and waits for the end
// of its processing (a page may be OCR'd: up to drafts.ocr_timeout).
func uploaded(hh *harness.Harness, u *harness.User, name string, file []byte) (int64, contract.StatusResponse) {
	res := upload(hh, u, name, file)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	id := Body[contract.DocumentResponse](res).Id
	return id, waitDocumentFor(hh, u, id, 90*time.Second)
}

// stepDetail is the detail of a document's named processing step.
func stepDetail(hh *harness.Harness, u *harness.User, id int64, name string) string {
	detail := ""
	for _, step := range stepsOf(hh, u, id) {
		if step.Name == name && step.Detail != nil {
			detail = *step.Detail
		}
	}
	return detail
}

var firstPage = strings.Join(pdffixtures.FirstPage, "\n")

var _ = Describe("PDFs as other writers make them", func() {
	var mod *harness.User
	BeforeEach(func() { mod = moderator(h) })

	must := func(b []byte, err error) []byte {
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		return b
	}
	entries := []TableEntry{
		Entry("PDF 2.0", func() []byte {
			return bytes.Replace(pdffixtures.QuestionPaper(), []byte("%PDF-1.4"), []byte("%PDF-2.0"), 1)
		}),
		Entry("pictures in every image-only encoding", pdffixtures.WithImages),
	}
	for _, f := range pdffixtures.Filters {
		entries = append(entries, Entry("content encoded with "+f, func() []byte { return must(pdffixtures.Filtered(f)) }))
	}
	for _, c := range pdffixtures.Ciphers {
		entries = append(entries, Entry(c+" encryption with an empty user password",
			func() []byte { return must(pdffixtures.EncryptedOpen(c)) }))
	}
	for _, d := range pdffixtures.Damages {
		entries = append(entries, Entry("a damaged file: "+d, func() []byte { return pdffixtures.Damaged(d) }))
	}
	DescribeTable("are read, their text stored page by page", func(file func() []byte) {
		id, st := uploaded(h, mod, "field.pdf", file())
		Expect(st.Status).To(Equal(contract.StatusResponseStatusReady), "status: %s", asJSON(st))
		Expect(st.ErrorMessage).To(BeNil())
		Expect(pageText(h, id, 1)).To(Equal(firstPage))
	}, entries)

	It("reads a file whose cross-reference chain loops, after a repair (as pdf.js does)", func() {
		_, st := uploaded(h, mod, "loop.pdf", pdffixtures.PrevCycle())
		Expect(st.Status).To(Equal(contract.StatusResponseStatusReady), "status: %s", asJSON(st))
		Expect(st.TotalPages).To(BeEquivalentTo(1))
	})

	It("refuses a file that needs a password, saying so, for every cipher", func() {
		for _, c := range pdffixtures.Ciphers {
			res := upload(h, mod, "locked.pdf", must(pdffixtures.EncryptedLocked(c)))
			Expect(res).To(HaveError(400, "bad_request"), c)
			Expect(message(res)).To(ContainSubstring("needs a password to open"), c)
		}
	})

	It("stores text whose font maps codes to NUL without them (ready, not stuck processing)", func() {
		id, st := uploaded(h, mod, "font-test.pdf", pdffixtures.NULText())
		Expect(st.Status).To(Equal(contract.StatusResponseStatusReady), "status: %s", asJSON(st))
		Expect(pageText(h, id, 1)).To(Equal("Question 1. Dose 10mg of what?"))
	})

	It("fails a document at once, with the reason, when its text cannot be stored", func() {
		// The database refuses one text, as it refused NUL before it was
		// cleaned out: any failure after the upload was accepted.
		db := h.App.DB.Conn(ctxb())
		Expect(db.Exec(`CREATE FUNCTION drafts.refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN IF NEW.text LIKE '%POISON%' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`).Error).To(Succeed())
		Expect(db.Exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON drafts.document_pages
			FOR EACH ROW EXECUTE FUNCTION drafts.refuse_poison()`).Error).To(Succeed())
		DeferCleanup(func() {
			Expect(db.Exec(`DROP TRIGGER refuse_poison ON drafts.document_pages`).Error).To(Succeed())
			Expect(db.Exec(`DROP FUNCTION drafts.refuse_poison()`).Error).To(Succeed())
		})
		id, st := uploaded(h, mod, "poison.pdf", pdffixtures.Build([]pdffixtures.Page{{"POISON question"}}, pdffixtures.Options{}))
		Expect(st.Status).To(Equal(contract.StatusResponseStatusFailed))
		Expect(st.ErrorMessage).To(HaveValue(HavePrefix("processing failed: the page text could not be stored")))
		Expect(st.ErrorMessage).To(HaveValue(ContainSubstring("refused by the test")))
		Expect(count(h, `SELECT count(*) FROM drafts.document_pages WHERE document_id = ?`, id)).To(BeZero())
		// It can be reprocessed once the cause is gone.
		Expect(db.Exec(`DROP TRIGGER refuse_poison ON drafts.document_pages`).Error).To(Succeed())
		Expect(db.Exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON drafts.document_pages
			FOR EACH ROW WHEN (false) EXECUTE FUNCTION drafts.refuse_poison()`).Error).To(Succeed())
		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", id), nil)).To(HaveStatus(202))
		Expect(waitDocument(h, mod, id).Status).To(Equal(contract.StatusResponseStatusReady))
	})
})

// scannedQuestion is the page the scanned fixture draws as a picture.
var scannedQuestion = []string{
	"1. Which chamber pumps blood into the aorta?",
	"A. Left ventricle",
	"B. Right atrium",
	"Answer: A",
}

var _ = Describe("A scanned paper (a page that is a picture, no text layer)", func() {
	var mod *harness.User
	var id int64
	BeforeEach(func() {
		mod = moderator(h)
		file, err := pdffixtures.Scanned(scannedQuestion)
		Expect(err).NotTo(HaveOccurred())
		var st contract.StatusResponse
		id, st = uploaded(h, mod, "scan.pdf", file)
		Expect(st.Status).To(Equal(contract.StatusResponseStatusReady), "status: %s", asJSON(st))
	})

	It("is read by OCR when processed, and its question extracted into a draft", func() {
		Expect(pageText(h, id, 1)).To(Equal(strings.Join(scannedQuestion, "\n")))
		Expect(stepDetail(h, mod, id, "text extracted")).To(Equal("0 of 1 pages have a text layer; 1 read by OCR"))
		sec := section(h, mod, id, "Scan", 1, 1)
		batch := batchOfJob(waitJob(h, mod, extract(h, mod, contract.ExtractInBody{SectionId: sec})))
		drafts := draftsOf(mod, batch, "all")
		Expect(drafts).To(HaveLen(1))
		Expect(drafts[0].QuestionText).To(Equal("Which chamber pumps blood into the aorta?"))
		Expect(drafts[0].Options).To(HaveValue(Equal([]string{"Left ventricle", "Right atrium"})))
		Expect(drafts[0].CorrectAnswer).To(Equal("Left ventricle"))
	})

	It("is read by OCR again when an extraction asks for the ocr reading mode", func() {
		// The stored text is gone; the ocr mode reads the pages afresh.
		Expect(h.App.DB.Conn(ctxb()).Exec(`UPDATE drafts.document_pages SET text = '' WHERE document_id = ?`, id).Error).To(Succeed())
		sec := section(h, mod, id, "Scan", 1, 1)
		Expect(waitJob(h, mod, extract(h, mod, contract.ExtractInBody{SectionId: sec})).Status).
			To(Equal(contract.JobResponseStatusFailed), "the text layer is empty")

		ocr := extract(h, mod, contract.ExtractInBody{SectionId: sec, ReadingMode: ptr(contract.ExtractInBodyReadingModeOcr)})
		job := AwaitJobWithinAs[contract.JobResponse](mod.Client(h), "/api/v1/quizzes/job/"+ocr, 2*time.Minute)
		batch := batchOfJob(job)
		Expect(batchOf(mod, batch).ReadingMode).To(Equal("ocr"))
		drafts := draftsOf(mod, batch, "all")
		Expect(drafts).To(HaveLen(1))
		Expect(drafts[0].QuestionText).To(Equal("Which chamber pumps blood into the aorta?"))
	})
})

// A file that gets past the reader's own checks (here: with the inflation
// bound lifted, as an unknown weakness would) and makes it allocate or
// compute without end is stopped by the child's limits; the worker, which
// never parsed it, goes on with the next document.
var _ = DescribeTable("A PDF that blows the reader's limits",
	func(limit string, value any, why string) {
		hh, err := harness.Start(harness.WithConfig(func(c *config.Config) {
			c.Set("drafts.max_stream_bytes", int64(4<<30))
			c.Set("drafts.max_document_bytes", int64(8<<30))
			c.Set(limit, value)
		}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(hh.Stop()).To(Succeed()) })
		mod := moderator(hh)

		_, st := uploaded(hh, mod, "bomb.pdf", pdffixtures.DeflateBomb(512))
		Expect(st.Status).To(Equal(contract.StatusResponseStatusFailed))
		Expect(st.ErrorMessage).To(HaveValue(Equal("the PDF could not be read: the PDF reader stopped: " + why)))

		id, st := uploaded(hh, mod, "cardiology.pdf", pdffixtures.QuestionPaper())
		Expect(st.Status).To(Equal(contract.StatusResponseStatusReady))
		Expect(pageText(hh, id, 2)).To(Equal(strings.Join(pdffixtures.PaperPages[1], "\n")))
		Expect(count(hh, `SELECT count(*) FROM river.river_job WHERE kind = 'process_pdf' AND attempt > 1`)).To(BeZero(),
			"no job was taken up again: no worker stopped")
	},
	Entry("memory: it fails that document with the reason; the worker lives on and reads the next one",
		"drafts.reader_memory", int64(128<<20), "reading it needed more than 128.0 MiB of memory (drafts.reader_memory)"),
	Entry("processor time: it fails that document with the reason; the worker lives on and reads the next one",
		"drafts.reader_cpu", "1s", "reading it used more than 1s of processor time (drafts.reader_cpu)"),
)
