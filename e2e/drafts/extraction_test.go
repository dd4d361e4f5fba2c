package drafts_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

var _ = Describe("Extraction jobs", func() {
	var (
		mod *harness.User
		doc int64
	)
	BeforeEach(func() {
		mod = moderator(h)
		doc = uploadReady(h, mod)
	})

	It("runs the built-in extractor and reports status, steps and the batch", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec})
		var priority int
		Expect(h.App.DB.Conn(ctxb()).Raw(`SELECT j.priority FROM river.river_job j JOIN platform.job_progress p
			ON p.job_id = j.id WHERE p.public_id = ?`, jobID).Scan(&priority).Error).To(Succeed())
		Expect(priority).To(Equal(int(jobs.Urgent)), "a moderator waits: fetched before any bulk work (a re-embedding)")
		job := waitJob(h, mod, jobID)
		Expect(job.Status).To(Equal(contract.JobResponseStatusCompleted))
		Expect(job.Error).To(BeNil())
		Expect(job.SectionId).To(Equal(sec))
		Expect(job.ReadingMode).To(Equal("text"))
		Expect(job.Drafts).To(BeEquivalentTo(7))
		Expect(job.Steps).NotTo(BeNil())
		Expect(names(*job.Steps)).To(Equal([]string{"loading section", "reading questions", "saving drafts"}))

		b := batchOf(mod, batchOfJob(job))
		Expect(b.JobId).To(Equal(jobID))
		Expect(b.Extractor).To(Equal("builtin"))
		Expect(b.Status).To(Equal(contract.BatchResponseStatusOpen))
		Expect(b.CategoryId).To(BeNil())
		Expect(b.Counts).To(Equal(contract.DraftCounts{Pending: 7, Rejected: 0, Accepted: 0, Total: 7}))

		mine := jobsOf(h, mod)
		Expect(mine).NotTo(BeEmpty())
		Expect(mine[0].JobId).To(Equal(jobID))
		Expect(jobsOf(h, moderator(h))).To(BeEmpty())
	})

	It("starts the same way through POST /quizzes/ (draft-only, nothing published)", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		res := mod.Client(h).Post("/api/v1/quizzes/", contract.ExtractInBody{SectionId: sec, Model: ptr("builtin")})
		Expect(res).To(HaveStatus(202))
		job := waitJob(h, mod, started(res))
		Expect(job.Status).To(Equal(contract.JobResponseStatusCompleted))
		Expect(draftsOf(mod, batchOfJob(job), "pending")).To(HaveLen(7))
	})

	It("fails with an error and no batch when the section holds no question", func() {
		sec := section(h, mod, doc, "Notes", 4, 4)
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec})
		job := waitJob(h, mod, jobID)
		Expect(job.Status).To(Equal(contract.JobResponseStatusFailed))
		Expect(job.Error).To(HaveValue(ContainSubstring("no questions were recognised on pages 4-4")))
		Expect(job.BatchId).To(BeNil())
		Expect(count(h, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(BeZero())
	})

	It("fails with the model's error when a model extractor fails", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		job := waitJob(h, mod, extract(h, mod, contract.ExtractInBody{SectionId: sec, Model: ptr("broken-model")}))
		Expect(job.Status).To(Equal(contract.JobResponseStatusFailed))
		Expect(job.Error).To(HaveValue(ContainSubstring("did not answer")))
	})

	DescribeTable("refuses a bad choice before anything is queued",
		func(body func(sec int64) map[string]any, status int, code string) {
			sec := section(h, mod, doc, "Cardiology", 1, 3)
			before := count(h, `SELECT count(*) FROM river.river_job WHERE kind = 'extract_quiz'`)
			Expect(mod.Client(h).Post("/api/v1/drafts/extract", body(sec))).To(HaveError(status, code))
			Expect(mod.Client(h).Post("/api/v1/quizzes/", body(sec))).To(HaveError(status, code))
			Expect(count(h, `SELECT count(*) FROM river.river_job WHERE kind = 'extract_quiz'`)).To(Equal(before))
		},
		Entry("a model that is not configured", func(sec int64) map[string]any {
			return map[string]any{"section_id": sec, "model": "gpt-unknown"}
		}, 400, "bad_request"),
		Entry("vision with the built-in extractor", func(sec int64) map[string]any {
			return map[string]any{"section_id": sec, "reading_mode": "vision"}
		}, 400, "bad_request"),
		Entry("vision with a model that reads text only", func(sec int64) map[string]any {
			return map[string]any{"section_id": sec, "model": "text-model", "reading_mode": "vision"}
		}, 400, "bad_request"),
		Entry("an unknown reading mode", func(sec int64) map[string]any {
			return map[string]any{"section_id": sec, "reading_mode": "telepathy"}
		}, 422, "invalid_request"),
		Entry("a missing section", func(int64) map[string]any {
			return map[string]any{"section_id": 999999}
		}, 404, "not_found"),
		Entry("a category that does not exist", func(sec int64) map[string]any {
			return map[string]any{"section_id": sec, "category_id": 999999}
		}, 422, "invalid_request"),
	)

	It("lets a model read in vision mode when one is configured", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec, Model: ptr("broken-model"),
			ReadingMode: ptr(contract.ExtractInBodyReadingModeVision)})
		Expect(waitJob(h, mod, jobID).ReadingMode).To(Equal("vision"))
	})

	It("stores nothing twice when a job whose batch was stored runs again (its worker died before the job was recorded done)", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec})
		batch, drafts := batchOfJob(waitJob(h, mod, jobID)), count(h, `SELECT count(*) FROM drafts.drafts d JOIN drafts.batches b
			ON b.id = d.batch_id WHERE b.job_id = ?`, jobID)
		Expect(drafts).To(BeNumerically(">", 0))
		// As a worker dying between the batch's commit and recording the
		// job's result leaves it: the work stored, no result.
		Expect(h.App.DB.Conn(ctxb()).Exec(`UPDATE platform.job_progress SET result = NULL WHERE public_id = ?`, jobID).
			Error).To(Succeed())

		h.RetryJob(h.NewUser(auth.RoleAdmin), jobID)
		job := waitJob(h, mod, jobID)
		Expect(job.Status).To(Equal(contract.JobResponseStatusCompleted))
		Expect(job.BatchId).To(HaveValue(Equal(batch)), "the batch its first run stored")
		Expect(count(h, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(Equal(1))
		Expect(count(h, `SELECT count(*) FROM drafts.drafts d JOIN drafts.batches b ON b.id = d.batch_id
			WHERE b.job_id = ?`, jobID)).To(Equal(drafts))
	})

	It("answers 404 for an unknown or malformed job id, and for jobs of other kinds", func() {
		Expect(mod.Client(h).Get("/api/v1/quizzes/job/00000000-0000-0000-0000-000000000000")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get("/api/v1/quizzes/job/not-a-uuid")).To(HaveError(404, "not_found"))
		var processJob string
		Expect(h.App.DB.Conn(ctxb()).Raw(`SELECT public_id::text FROM platform.job_progress WHERE kind = 'process_pdf' LIMIT 1`).
			Scan(&processJob).Error).To(Succeed())
		Expect(mod.Client(h).Get("/api/v1/quizzes/job/" + processJob)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/quizzes/job/"+processJob+"/cancel", nil)).To(HaveError(404, "not_found"))
	})

	It("is for moderators, except the caller's own job list", func() {
		learner := h.NewUser(auth.RoleUser)
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		Expect(learner.Client(h).Post("/api/v1/drafts/extract", contract.ExtractInBody{SectionId: sec})).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Post("/api/v1/quizzes/", contract.ExtractInBody{SectionId: sec})).To(HaveError(403, "forbidden"))
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec})
		Expect(learner.Client(h).Get("/api/v1/quizzes/job/" + jobID)).To(HaveError(403, "forbidden"))
		Expect(jobsOf(h, learner)).To(BeEmpty())
		Expect(h.Anon().Get("/api/v1/quizzes/jobs")).To(HaveError(401, "unauthenticated"))
	})
})

// jobsOf lists the caller's own extraction jobs.
func jobsOf(hh *harness.Harness, u *harness.User) []contract.JobResponse {
	res := u.Client(hh).Get("/api/v1/quizzes/jobs")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[[]contract.JobResponse](res)
}

var _ = Describe("Cancelling an extraction job", func() {
	var (
		mod *harness.User
		sec int64
	)
	BeforeEach(func() {
		mod = moderator(h)
		sec = section(h, mod, uploadReady(h, mod), "Cardiology", 2, 3)
	})

	It("lets only the owner cancel a running job, which stops and stores nothing", func() {
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec, Model: ptr("slow-model")})
		// Running, and the model reading: a cancel that lands before the
		// model starts (a loaded machine) stops the job before the model
		// could notice it.
		Eventually(func(g Gomega) {
			res := mod.Client(h).Get("/api/v1/quizzes/job/" + jobID)
			g.Expect(res).To(HaveStatus(200))
			job := Body[contract.JobResponse](res)
			g.Expect(job.Status).To(Equal(contract.JobResponseStatusRunning))
			g.Expect(job.Steps).NotTo(BeNil())
			g.Expect(names(*job.Steps)).To(ContainElement("reading with slow-model"))
		}, "30s", "50ms").Should(Succeed())
		stopped := slowStopped.count(2)

		Expect(moderator(h).Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(403, "forbidden"))
		Expect(h.NewUser(auth.RoleAdmin).Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).
			To(HaveError(403, "forbidden"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).
			To(HaveError(403, "forbidden"))

		res := mod.Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)
		Expect(res).To(HaveStatus(200))
		Expect(Exact[contract.CancelResponse](res)).To(Equal(contract.CancelResponse{Status: contract.CancelResponseStatusCancelled}))
		Eventually(func() int { return slowStopped.count(2) }, "30s", "50ms").Should(BeNumerically(">", stopped))

		job := jobOf(h, mod, jobID)
		Expect(job.Status).To(Equal(contract.JobResponseStatusCancelled))
		Expect(job.BatchId).To(BeNil())
		Expect(count(h, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(BeZero())

		Expect(mod.Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(400, "bad_request"))
	})

	It("refuses to cancel a job that has finished (400)", func() {
		jobID := extract(h, mod, contract.ExtractInBody{SectionId: sec})
		Expect(waitJob(h, mod, jobID).Status).To(Equal(contract.JobResponseStatusCompleted))
		res := mod.Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring("not running (status completed)"))
	})

	It("answers 404 for a job that does not exist", func() {
		Expect(mod.Client(h).Post("/api/v1/quizzes/job/00000000-0000-0000-0000-000000000000/cancel", nil)).
			To(HaveError(404, "not_found"))
	})
})
