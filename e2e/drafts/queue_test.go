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
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/platform/config"
)

func stepNames(hh *harness.Harness, u *harness.User, doc int64) []string {
	res := u.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/processing-steps", doc))
	Expect(res).To(HaveStatus(200))
	var names []string
	for _, s := range res.Map()["steps"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	return names
}

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
		Expect(res.Map()["status"]).To(Equal("ready"))
		Expect(res.Map()["total_pages"]).To(BeNumerically("==", 4))
		Expect(stepNames(full, mod, res.ID())).To(Equal(
			[]string{"uploaded", "processing in the request", "reading pages", "text extracted", "ready"}))
		Expect(count(full, `SELECT count(*) FROM river.river_job`)).To(BeZero())
	})

	It("answers 503 to an extraction and creates nothing", func() {
		mod := moderator(full)
		doc := upload(full, mod, "paper.pdf", pdffixtures.QuestionPaper()).ID()
		sec := section(full, mod, doc, "Cardiology", 1, 3)
		for _, path := range []string{"/api/v1/drafts/extract", "/api/v1/quizzes/"} {
			res := mod.Client(full).Post(path, map[string]any{"section_id": sec})
			Expect(res).To(HaveError(503, "unavailable"))
			Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		}
		Expect(count(full, `SELECT count(*) FROM river.river_job`)).To(BeZero())
		Expect(count(full, `SELECT count(*) FROM drafts.batches`)).To(BeZero())
		Expect(count(full, `SELECT count(*) FROM drafts.drafts`)).To(BeZero())
		Expect(mod.Client(full).Get("/api/v1/quizzes/jobs").List()).To(BeEmpty())
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
		Expect(res.Map()["status"]).To(Equal("failed"))
		Expect(res.Map()["error_message"]).To(ContainSubstring("the stored file is missing"))
		Expect(stepNames(full, mod, doc)).To(ContainElements("reprocess requested", "failed"))

		sec := mod.Client(full).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc),
			map[string]any{"name": "x", "start_page": 1, "end_page": 1})
		Expect(sec).To(HaveError(400, "bad_request"))
		Expect(message(sec)).To(ContainSubstring("not ready (status failed)"))
	})

	It("reprocesses a ready document on request", func() {
		mod := moderator(full)
		doc := upload(full, mod, "paper.pdf", pdffixtures.QuestionPaper()).ID()
		res := mod.Client(full).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		Expect(res.Map()["status"]).To(Equal("ready"))
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

	status := func() map[string]any {
		res := mod.Client(idle).Get(fmt.Sprintf("/api/v1/documents/%d/status", doc))
		Expect(res).To(HaveStatus(200))
		return res.Map()
	}

	It("stays processing while no worker takes its job, refusing sections and reprocessing", func() {
		Expect(status()["status"]).To(Equal("processing"))
		sec := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc),
			map[string]any{"name": "x", "start_page": 1, "end_page": 1})
		Expect(sec).To(HaveError(400, "bad_request"))
		Expect(message(sec)).To(ContainSubstring("not ready (status processing)"))
		Expect(mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)).To(HaveError(409, "conflict"))
	})

	It("is left alone by the repair before 30 minutes have passed", func() {
		repaired, err := app.Lookup[*drafts.Module](idle.App).RepairStuckDocuments(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(repaired).To(BeEmpty())
		Expect(status()["status"]).To(Equal("processing"))
	})

	It("is moved to ready by `rounds repair-stuck-documents` once older than 30 minutes", func() {
		Expect(idle.App.DB.Conn(ctxb()).Exec(`UPDATE drafts.documents
			SET processing_started_at = now() - interval '31 minutes' WHERE id = ?`, doc).Error).To(Succeed())
		out := runRounds(idle, "repair-stuck-documents")
		Expect(out).To(ContainSubstring(fmt.Sprintf("repaired 1 stuck documents [%d]", doc)))

		st := status()
		Expect(st["status"]).To(Equal("ready"))
		Expect(st["total_pages"]).To(BeNumerically("==", 0))
		Expect(st["error_message"]).To(ContainSubstring("did not finish within 30 minutes"))
		Expect(stepNames(idle, mod, doc)).To(HaveLen(3))
		Expect(stepNames(idle, mod, doc)[2]).To(Equal("repaired"))

		Expect(runRounds(idle, "repair-stuck-documents")).To(ContainSubstring("repaired 0 stuck documents"))
		sec := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc),
			map[string]any{"name": "x", "start_page": 1, "end_page": 1})
		Expect(sec).To(HaveError(400, "bad_request"))
		Expect(message(sec)).To(ContainSubstring("reprocess it first"))
	})

	It("can then be reprocessed, and a worker coming back finishes it", func() {
		res := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		Expect(res.Map()["status"]).To(Equal("processing"))
		Expect(res.Map()["error_message"]).To(BeNil())

		stop := startWorker(idle)
		defer stop()
		Eventually(func() any { return status()["status"] }, "15s", "50ms").Should(Equal("ready"))
		Expect(status()["total_pages"]).To(BeNumerically("==", 4))
		Expect(status()["error_message"]).To(BeNil())
		// The first run's job, still queued, was superseded: it wrote nothing twice.
		Eventually(func() int {
			return count(idle, `SELECT count(*) FROM river.river_job WHERE kind = 'process_pdf' AND state = 'completed'`)
		}, "15s", "50ms").Should(Equal(2))
		Expect(count(idle, `SELECT count(*) FROM drafts.document_pages WHERE document_id = ?`, doc)).To(Equal(4))
	})

	It("fails a queued extraction whose document was deleted before it ran", func() {
		other := upload(idle, mod, "gone.pdf", pdffixtures.QuestionPaper()).ID()
		stop := startWorker(idle)
		Eventually(func() any {
			return mod.Client(idle).Get(fmt.Sprintf("/api/v1/documents/%d/status", other)).Map()["status"]
		}, "15s", "50ms").Should(Equal("ready"))
		stop()
		sec := section(idle, mod, other, "Cardiology", 1, 3)
		jobID := extract(idle, mod, map[string]any{"section_id": sec})
		Expect(mod.Client(idle).Delete(fmt.Sprintf("/api/v1/documents/%d", other))).To(HaveStatus(204))

		stop = startWorker(idle)
		defer stop()
		job := waitJob(idle, mod, jobID)
		Expect(job["status"]).To(Equal("failed"))
		Expect(job["error"]).To(ContainSubstring(fmt.Sprintf("section %d was deleted before the extraction ran", sec)))
	})

	It("lets the owner cancel an extraction job that is still pending", func() {
		sec := section(idle, mod, doc, "Cardiology", 1, 3)
		jobID := extract(idle, mod, map[string]any{"section_id": sec})
		Expect(mod.Client(idle).Get("/api/v1/quizzes/job/" + jobID).Map()["status"]).To(Equal("pending"))
		Expect(moderator(idle).Client(idle).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(idle).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveStatus(200))
		Expect(mod.Client(idle).Get("/api/v1/quizzes/job/" + jobID).Map()["status"]).To(Equal("cancelled"))
		Expect(mod.Client(idle).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(400, "bad_request"))

		stop := startWorker(idle)
		defer stop()
		other := extract(idle, mod, map[string]any{"section_id": sec})
		Expect(waitJob(idle, mod, other)["status"]).To(Equal("completed"))
		Expect(count(idle, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(BeZero())
	})

	It("refuses an extraction while the section's document is processing again (400), queueing nothing", func() {
		sec := section(idle, mod, doc, "Cardiology", 1, 3)
		res := mod.Client(idle).Post(fmt.Sprintf("/api/v1/documents/%d/reprocess", doc), nil)
		Expect(res).To(HaveStatus(202))
		Expect(res.Map()["status"]).To(Equal("processing")) // no worker runs now

		before := count(idle, `SELECT count(*) FROM river.river_job WHERE kind = 'extract_quiz'`)
		for _, path := range []string{"/api/v1/drafts/extract", "/api/v1/quizzes/"} {
			res := mod.Client(idle).Post(path, map[string]any{"section_id": sec})
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(message(res)).To(ContainSubstring(fmt.Sprintf("document %d is not ready (status processing)", doc)))
		}
		Expect(count(idle, `SELECT count(*) FROM river.river_job WHERE kind = 'extract_quiz'`)).To(Equal(before))
	})
})

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
