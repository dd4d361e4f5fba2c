package drafts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
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
		jobID := extract(h, mod, map[string]any{"section_id": sec})
		var priority int
		Expect(h.App.DB.Conn(ctxb()).Raw(`SELECT j.priority FROM river.river_job j JOIN platform.job_progress p
			ON p.job_id = j.id WHERE p.public_id = ?`, jobID).Scan(&priority).Error).To(Succeed())
		Expect(priority).To(Equal(int(jobs.Urgent)), "a moderator waits: fetched before any bulk work (a re-embedding)")
		job := waitJob(h, mod, jobID)
		Expect(job["status"]).To(Equal("completed"))
		Expect(job["error"]).To(BeNil())
		Expect(job["section_id"]).To(BeNumerically("==", sec))
		Expect(job["reading_mode"]).To(Equal("text"))
		Expect(job["drafts"]).To(BeNumerically("==", 7))
		var steps []string
		for _, s := range job["steps"].([]any) {
			steps = append(steps, s.(map[string]any)["name"].(string))
		}
		Expect(steps).To(Equal([]string{"loading section", "reading questions", "saving drafts"}))

		batch := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%.0f", job["batch_id"]))
		Expect(batch).To(HaveStatus(200))
		b := batch.Map()
		Expect(b["job_id"]).To(Equal(jobID))
		Expect(b["extractor"]).To(Equal("builtin"))
		Expect(b["status"]).To(Equal("open"))
		Expect(b["category_id"]).To(BeNil())
		Expect(b["counts"]).To(Equal(map[string]any{"pending": 7.0, "rejected": 0.0, "accepted": 0.0, "total": 7.0}))

		mine := mod.Client(h).Get("/api/v1/quizzes/jobs")
		Expect(mine).To(HaveStatus(200))
		Expect(mine.List()[0].(map[string]any)["job_id"]).To(Equal(jobID))
		Expect(moderator(h).Client(h).Get("/api/v1/quizzes/jobs").List()).To(BeEmpty())
	})

	It("starts the same way through POST /quizzes/ (draft-only, nothing published)", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		res := mod.Client(h).Post("/api/v1/quizzes/", map[string]any{"section_id": sec, "model": "builtin"})
		Expect(res).To(HaveStatus(202))
		Expect(res.Map()["status"]).To(Equal("pending"))
		job := waitJob(h, mod, res.Map()["job_id"].(string))
		Expect(job["status"]).To(Equal("completed"))
		Expect(draftsOf(mod, int64(job["batch_id"].(float64)), "pending")).To(HaveLen(7))
	})

	It("fails with an error and no batch when the section holds no question", func() {
		sec := section(h, mod, doc, "Notes", 4, 4)
		jobID := extract(h, mod, map[string]any{"section_id": sec})
		job := waitJob(h, mod, jobID)
		Expect(job["status"]).To(Equal("failed"))
		Expect(job["error"]).To(ContainSubstring("no questions were recognised on pages 4-4"))
		Expect(job["batch_id"]).To(BeNil())
		Expect(count(h, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(BeZero())
	})

	It("fails with the model's error when a model extractor fails", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		job := waitJob(h, mod, extract(h, mod, map[string]any{"section_id": sec, "model": "broken-model"}))
		Expect(job["status"]).To(Equal("failed"))
		Expect(job["error"]).To(ContainSubstring("did not answer"))
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
		jobID := extract(h, mod, map[string]any{"section_id": sec, "model": "broken-model", "reading_mode": "vision"})
		Expect(waitJob(h, mod, jobID)["reading_mode"]).To(Equal("vision"))
	})

	It("stores nothing twice when a job whose batch was stored runs again (its worker died before the job was recorded done)", func() {
		sec := section(h, mod, doc, "Cardiology", 1, 3)
		jobID := extract(h, mod, map[string]any{"section_id": sec})
		job := waitJob(h, mod, jobID)
		Expect(job["status"]).To(Equal("completed"))
		batch, drafts := job["batch_id"], count(h, `SELECT count(*) FROM drafts.drafts d JOIN drafts.batches b
			ON b.id = d.batch_id WHERE b.job_id = ?`, jobID)
		Expect(drafts).To(BeNumerically(">", 0))
		// As a worker dying between the batch's commit and recording the
		// job's result leaves it: the work stored, no result.
		Expect(h.App.DB.Conn(ctxb()).Exec(`UPDATE platform.job_progress SET result = NULL WHERE public_id = ?`, jobID).
			Error).To(Succeed())

		h.RetryJob(h.NewUser(auth.RoleAdmin), jobID)
		job = waitJob(h, mod, jobID)
		Expect(job["status"]).To(Equal("completed"))
		Expect(job["batch_id"]).To(Equal(batch), "the batch its first run stored")
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
		Expect(learner.Client(h).Post("/api/v1/drafts/extract", map[string]any{"section_id": sec})).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Post("/api/v1/quizzes/", map[string]any{"section_id": sec})).To(HaveError(403, "forbidden"))
		jobID := extract(h, mod, map[string]any{"section_id": sec})
		Expect(learner.Client(h).Get("/api/v1/quizzes/job/" + jobID)).To(HaveError(403, "forbidden"))
		list := learner.Client(h).Get("/api/v1/quizzes/jobs")
		Expect(list).To(HaveStatus(200))
		Expect(list.List()).To(BeEmpty())
		Expect(h.Anon().Get("/api/v1/quizzes/jobs")).To(HaveError(401, "unauthenticated"))
	})
})

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
		jobID := extract(h, mod, map[string]any{"section_id": sec, "model": "slow-model"})
		// Running, and the model reading: a cancel that lands before the
		// model starts (a loaded machine) stops the job before the model
		// could notice it.
		Eventually(func(g Gomega) {
			job := mod.Client(h).Get("/api/v1/quizzes/job/" + jobID).Map()
			g.Expect(job["status"]).To(Equal("running"))
			var names []string
			for _, s := range job["steps"].([]any) {
				names = append(names, s.(map[string]any)["name"].(string))
			}
			g.Expect(names).To(ContainElement("reading with slow-model"))
		}, "30s", "50ms").Should(Succeed())
		stopped := slowStopped.count(2)

		Expect(moderator(h).Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(403, "forbidden"))
		Expect(h.NewUser(auth.RoleAdmin).Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).
			To(HaveError(403, "forbidden"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).
			To(HaveError(403, "forbidden"))

		res := mod.Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(Equal(map[string]any{"status": "cancelled"}))
		Eventually(func() int { return slowStopped.count(2) }, "30s", "50ms").Should(BeNumerically(">", stopped))

		job := mod.Client(h).Get("/api/v1/quizzes/job/" + jobID).Map()
		Expect(job["status"]).To(Equal("cancelled"))
		Expect(job["batch_id"]).To(BeNil())
		Expect(count(h, `SELECT count(*) FROM drafts.batches WHERE job_id = ?`, jobID)).To(BeZero())

		Expect(mod.Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)).To(HaveError(400, "bad_request"))
	})

	It("refuses to cancel a job that has finished (400)", func() {
		jobID := extract(h, mod, map[string]any{"section_id": sec})
		Expect(waitJob(h, mod, jobID)["status"]).To(Equal("completed"))
		res := mod.Client(h).Post("/api/v1/quizzes/job/"+jobID+"/cancel", nil)
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(res.Map()["error"].(map[string]any)["message"]).To(ContainSubstring("not running (status completed)"))
	})

	It("answers 404 for a job that does not exist", func() {
		Expect(mod.Client(h).Post("/api/v1/quizzes/job/00000000-0000-0000-0000-000000000000/cancel", nil)).
			To(HaveError(404, "not_found"))
	})
})
