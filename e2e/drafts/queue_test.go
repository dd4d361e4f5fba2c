package drafts_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/platform/config"
)

var _ = Describe("When the job queue cannot accept work", Ordered, func() {
	var full *harness.Harness
	BeforeAll(func() {
		var err error
		full, err = harness.Start(harness.WithConfig(func(c *config.Config) { c.Jobs.MaxPending = 0 }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(full.Stop()).To(Succeed()) })
	})

	It("processes an upload inside the request instead", func() {
		mod := moderator(full)
		res := upload(full, mod, "paper.pdf", pdffixtures.QuestionPaper())
		Expect(res).To(HaveStatus(201))
		doc := Body[contract.DocumentResponse](res)
		Expect(doc.Status).To(Equal(contract.DocumentResponseStatusReady))
		Expect(doc.TotalPages).To(BeEquivalentTo(4))
		Expect(stepNames(full, mod, doc.Id)).To(Equal(
			[]string{"uploaded", "processing in the request", "reading pages", "text extracted", "ready"}))
		Expect(count(full, `SELECT count(*) FROM river.river_job`)).To(BeZero())
	})

	It("answers 503 to an extraction and creates nothing", func() {
		mod := moderator(full)
		doc := upload(full, mod, "paper.pdf", pdffixtures.QuestionPaper()).ID()
		sec := section(full, mod, doc, "Cardiology", 1, 3)
		for _, path := range []string{"/api/v1/drafts/extract", "/api/v1/quizzes/"} {
			res := mod.Client(full).Post(path, contract.ExtractInBody{SectionId: sec})
			Expect(res).To(HaveError(503, "unavailable"))
			Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		}
		Expect(count(full, `SELECT count(*) FROM river.river_job`)).To(BeZero())
		Expect(count(full, `SELECT count(*) FROM drafts.batches`)).To(BeZero())
		Expect(count(full, `SELECT count(*) FROM drafts.drafts`)).To(BeZero())
		Expect(jobsOf(full, mod)).To(BeEmpty())
	})

	It("records a processing failure on the document, which then refuses sections", func() {
		mod := moderator(full)
		doc := upload(full, mod, "paper.pdf", pdffixtures.QuestionPaper()).ID()
		var key string
		Expect(full.App.DB.Conn(ctxb()).Raw(`SELECT storage_key FROM drafts.documents WHERE id = ?`, doc).
			Scan(&key).Error).To(Succeed())
		Expect(full.App.Storage.Delete(ctxb(), key)).To(Succeed()) // the bucket lost the file

		res := mod.Client(full).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		failed := Body[contract.DocumentResponse](res)
		Expect(failed.Status).To(Equal(contract.DocumentResponseStatusFailed))
		Expect(failed.ErrorMessage).To(HaveValue(ContainSubstring("the stored file is missing")))
		Expect(stepNames(full, mod, doc)).To(ContainElements("reprocess requested", "failed"))

		sec := mod.Client(full).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc), pageOne)
		Expect(sec).To(HaveError(400, "bad_request"))
		Expect(message(sec)).To(ContainSubstring("not ready (status failed)"))
	})

	It("reprocesses a ready document on request", func() {
		mod := moderator(full)
		doc := upload(full, mod, "paper.pdf", pdffixtures.QuestionPaper()).ID()
		res := mod.Client(full).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		Expect(Body[contract.DocumentResponse](res).Status).To(Equal(contract.DocumentResponseStatusReady))
		Expect(count(full, `SELECT count(*) FROM drafts.document_pages WHERE document_id = ?`, doc)).To(Equal(4))
	})
})

var _ = Describe("A document stuck in processing", Ordered, func() {
	var (
		idle *harness.Harness // serves HTTP but runs no worker: queued work waits
		mod  *harness.User
		doc  int64
	)
	BeforeAll(func() {
		var err error
		idle, err = harness.Start(harness.WithRole(app.RoleServe))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(idle.Stop()).To(Succeed()) })
		mod = moderator(idle)
		res := upload(idle, mod, "stuck.pdf", pdffixtures.QuestionPaper())
		Expect(res).To(HaveStatus(201))
		doc = res.ID()
	})

	status := func() contract.StatusResponse { return documentStatus(idle, mod, doc) }

	It("stays processing while no worker takes its job, refusing sections and reprocessing", func() {
		Expect(status().Status).To(Equal(contract.StatusResponseStatusProcessing))
		sec := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc), pageOne)
		Expect(sec).To(HaveError(400, "bad_request"))
		Expect(message(sec)).To(ContainSubstring("not ready (status processing)"))
		Expect(mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)).To(HaveError(409, "conflict"))
	})

	It("is left alone by the repair before 30 minutes have passed", func() {
		repaired, err := app.Lookup[*drafts.Module](idle.App).RepairStuckDocuments(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(repaired).To(BeEmpty())
		Expect(status().Status).To(Equal(contract.StatusResponseStatusProcessing))
	})

	It("is moved to ready by `rounds repair-stuck-documents` once older than 30 minutes", func() {
		Expect(idle.App.DB.Conn(ctxb()).Exec(`UPDATE drafts.documents
			SET processing_started_at = now() - interval '31 minutes' WHERE id = ?`, doc).Error).To(Succeed())
		out := runRounds(idle, "repair-stuck-documents")
		Expect(out).To(ContainSubstring(fmt.Sprintf("repaired 1 stuck documents [%d]", doc)))

		st := status()
		Expect(st.Status).To(Equal(contract.StatusResponseStatusReady))
		Expect(st.TotalPages).To(BeZero())
		Expect(st.ErrorMessage).To(HaveValue(ContainSubstring("did not finish within 30 minutes")))
		Expect(stepNames(idle, mod, doc)).To(HaveLen(3))
		Expect(stepNames(idle, mod, doc)[2]).To(Equal("repaired"))

		Expect(runRounds(idle, "repair-stuck-documents")).To(ContainSubstring("repaired 0 stuck documents"))
		sec := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc), pageOne)
		Expect(sec).To(HaveError(400, "bad_request"))
		Expect(message(sec)).To(ContainSubstring("reprocess it first"))
	})

	It("can then be reprocessed, and a worker coming back finishes it", func() {
		res := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		again := Body[contract.DocumentResponse](res)
		Expect(again.Status).To(Equal(contract.DocumentResponseStatusProcessing))
		Expect(again.ErrorMessage).To(BeNil())

		stop := startWorker(idle)
		defer stop()
		Eventually(func() contract.StatusResponseStatus { return status().Status }, "15s", "50ms").
			Should(Equal(contract.StatusResponseStatusReady))
		Expect(status().TotalPages).To(BeEquivalentTo(4))
		Expect(status().ErrorMessage).To(BeNil())
		// The first run's job, still queued, was superseded: it wrote nothing twice.
		Eventually(func() int {
			return count(idle, `SELECT count(*) FROM river.river_job WHERE kind = 'process_pdf' AND state = 'completed'`)
		}, "15s", "50ms").Should(Equal(2))
		Expect(count(idle, `SELECT count(*) FROM drafts.document_pages WHERE document_id = ?`, doc)).To(Equal(4))
	})

	It("fails a queued extraction whose document was deleted before it ran", func() {
		other := upload(idle, mod, "gone.pdf", pdffixtures.QuestionPaper()).ID()
		stop := startWorker(idle)
		Eventually(func() contract.StatusResponseStatus { return documentStatus(idle, mod, other).Status }, "15s", "50ms").
			Should(Equal(contract.StatusResponseStatusReady))
		stop()
		sec := section(idle, mod, other, "Cardiology", 1, 3)
		jobID := extract(idle, mod, contract.ExtractInBody{SectionId: sec})
		Expect(mod.Client(idle).Delete(fmt.Sprintf("/api/v1/documents/%d", other))).To(HaveStatus(204))

		stop = startWorker(idle)
		defer stop()
		job := waitJob(idle, mod, jobID)
		Expect(job.Status).To(Equal(contract.JobResponseStatusFailed))
		Expect(job.Error).To(HaveValue(ContainSubstring(fmt.Sprintf("section %d was deleted before the extraction ran", sec))))
	})

	It("lets the owner cancel an extraction job that is still pending", func() {
		sec := section(idle, mod, doc, "Cardiology", 1, 3)
		jobID := extract(idle, mod, contract.ExtractInBody{SectionId: sec})
		Expect(jobOf(idle, mod, jobID).Status).To(Equal(contract.JobResponseStatusPending))
		Expect(moderator(idle).Client(idle).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(idle).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveStatus(200))
		Expect(jobOf(idle, mod, jobID).Status).To(Equal(contract.JobResponseStatusCancelled))
		Expect(mod.Client(idle).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(400, "bad_request"))

		stop := startWorker(idle)
		defer stop()
		other := extract(idle, mod, contract.ExtractInBody{SectionId: sec})
		Expect(waitJob(idle, mod, other).Status).To(Equal(contract.JobResponseStatusCompleted))
		Expect(count(idle, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(BeZero())
	})

	It("refuses an extraction while the section's document is processing again (400), queueing nothing", func() {
		sec := section(idle, mod, doc, "Cardiology", 1, 3)
		res := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		Expect(Body[contract.DocumentResponse](res).Status).To(Equal(contract.DocumentResponseStatusProcessing)) // no worker runs now

		before := count(idle, `SELECT count(*) FROM river.river_job WHERE kind = 'extract_quiz'`)
		for _, path := range []string{"/api/v1/drafts/extract", "/api/v1/quizzes/"} {
			res := mod.Client(idle).Post(path, contract.ExtractInBody{SectionId: sec})
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(message(res)).To(ContainSubstring(fmt.Sprintf("document %d is not ready (status processing)", doc)))
		}
		Expect(count(idle, `SELECT count(*) FROM river.river_job WHERE kind = 'extract_quiz'`)).To(Equal(before))
	})
})

// pageOne asks for a section of the first page.
var pageOne = contract.CreateSectionInBody{Name: "x", StartPage: 1, EndPage: 1}

// startWorker runs the app's job runner until the returned stop is called:
// a worker process coming back.
func startWorker(hh *harness.Harness) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hh.App.Runner.Run(ctx, 5*time.Second)
	}()
	return func() { cancel(); <-done }
}

// roundsBinary is built once per suite run.
var roundsBinary string

// runRounds runs the real `rounds` binary against the harness's database.
func runRounds(hh *harness.Harness, args ...string) string {
	if roundsBinary == "" {
		dir := GinkgoT().TempDir()
		roundsBinary = filepath.Join(dir, "rounds")
		build := exec.Command("go", "build", "-o", roundsBinary, "github.com/roundsedu/rounds/app/cmd/rounds")
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "go build: %s", out)
		DeferCleanup(func() { roundsBinary = "" })
	}
	cmd := exec.Command(roundsBinary, args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+hh.DBURL, "ROUNDS_AUTH_TOKEN_SECRET="+strings.Repeat("t", 40),
		"ROUNDS_LOG_LEVEL=error", "ROUNDS_METRICS_ENABLED=false")
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "rounds %v: %s", args, out)
	return string(out)
}
