package fault_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Serial: each test owns the helper processes it starts, and counts the
// jobs and ticks they make.
var _ = Describe("Separate processes on one database", Serial, func() {
	BeforeEach(func() {
		Expect(h.App.DB.Conn(ctxb).Exec(tickSchema).Error).To(Succeed())
		Expect(h.App.DB.Conn(ctxb).Exec("TRUNCATE " + tickTable).Error).To(Succeed())
		DeferCleanup(stopHelpers)
	})

	job := func(id uuid.UUID) *jobs.Record {
		rec, err := h.App.Queue.Get(ctxb, id)
		Expect(err).NotTo(HaveOccurred())
		return rec
	}

	It("takes up a job again once its time limit passed when its worker process is killed mid-job", func() {
		first := startHelper(app.RoleWorker)
		id, err := h.App.Queue.Enqueue(ctxb, nil, block{Block: true})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() int { return len(job(id).Steps) }, "20s", "50ms").Should(BeNumerically(">", 0))
		Expect(job(id).Status).To(Equal(jobs.Running))

		first.kill()
		killed := time.Now()
		second := startHelper(app.RoleWorker)
		Eventually(func() jobs.Status { return job(id).Status }, "30s", "50ms").Should(Equal(jobs.Completed))
		took := time.Since(killed)
		rec := job(id)
		Expect(rec.Attempts).To(Equal(2))
		var result struct{ Attempt, PID int }
		Expect(rec.Decode(&result)).To(Succeed())
		Expect(result).To(Equal(struct{ Attempt, PID int }{2, second.pid()}))
		AddReportEntry("worker killed mid-job", fmt.Sprintf("completed by another worker process %s after the kill "+
			"(the kind's time limit %s, jobs.rescue_after %s, River's leader election and rescuer sweep, its start included)",
			took.Round(10*time.Millisecond), blockTimeout, h.Config.Jobs.RescueAfter))
	})

	It("does not do a job's work twice when its worker process is killed after the work committed", func() {
		Expect(h.App.DB.Conn(ctxb).Exec(onceSchema).Error).To(Succeed())
		first := startHelper(app.RoleWorker)
		id, err := h.App.Queue.Enqueue(ctxb, nil, once{Block: true})
		Expect(err).NotTo(HaveOccurred())
		stored := func() int { return scalar[int]("SELECT count(*) FROM "+onceTable+" WHERE job = ?", id) }
		Eventually(stored, "20s", "50ms").Should(Equal(1))
		Expect(job(id).Status).To(Equal(jobs.Running), "River has not heard the job ended")

		first.kill()
		startHelper(app.RoleWorker)
		Eventually(func() jobs.Status { return job(id).Status }, "60s", "50ms").Should(Equal(jobs.Completed))
		rec := job(id)
		Expect(rec.Attempts).To(Equal(2), "taken up again by the other worker")
		Expect(stored()).To(Equal(1), "its work not done twice")
		var result struct{ Attempt, PID int }
		Expect(rec.Decode(&result)).To(Succeed())
		Expect(result).To(Equal(struct{ Attempt, PID int }{1, first.pid()}), "the result stored with the work")
	})

	It("moves scheduling to the other scheduler when the leader's process is killed; each tick runs once per period", func() {
		a, b := startHelper(app.RoleScheduler), startHelper(app.RoleScheduler)
		ticksBy := func(pid int) func() int {
			return func() int { return scalar[int]("SELECT count(*) FROM "+tickTable+" WHERE pid = ?", pid) }
		}
		Eventually(func() int { return ticksBy(a.pid())() + ticksBy(b.pid())() }, "20s", "50ms").Should(BeNumerically(">=", 2))
		leader, standby := a, b
		if ticksBy(b.pid())() > 0 {
			leader, standby = b, a
		}
		Expect(ticksBy(standby.pid())()).To(BeZero(), "two leaders at once")

		leader.kill()
		killed := time.Now()
		Eventually(ticksBy(standby.pid()), "20s", "20ms").Should(BeNumerically(">=", 1))
		took := time.Since(killed)
		Eventually(ticksBy(standby.pid()), "20s", "50ms").Should(BeNumerically(">=", 3))

		expectOneTickPerPeriod()
		AddReportEntry("scheduler leader killed", fmt.Sprintf("the standby ran its first tick %s after the kill (leader_check %s, period %s)",
			took.Round(10*time.Millisecond), h.Config.Scheduler.LeaderCheck, tickEvery))
	})

	It("runs serve, worker and scheduler as separate processes, two of each, behind one database", func() {
		ps := startHelpers(app.RoleServe, app.RoleServe, app.RoleWorker, app.RoleWorker, app.RoleScheduler, app.RoleScheduler)
		serves, workers, scheds := ps[:2], ps[2:4], ps[4:]

		// A learner signed in once is served by any API process: a save on
		// one is read back from the other.
		quiz, questions := publishedQuiz(2)
		learner := h.NewUser(auth.RoleUser)
		via := func(p *process) *Client { return learner.Client(h).At("http://" + p.addr) }
		attempt := id(via(serves[0]).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil))
		Expect(via(serves[1]).Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": attempt,
			"answers": map[string]string{itoa(questions[0]): "Bravo"}, "current_idx": 1, "mode": "timed", "revision": 1})).
			To(HaveStatus(http.StatusOK))
		res := via(serves[0]).Get(fmt.Sprintf("/api/v1/attempts/progress?quiz_id=%d&attempt_id=%d", quiz, attempt))
		Expect(res).To(HaveStatus(http.StatusOK))
		Expect(string(res.Body)).To(ContainSubstring("Bravo"))
		for _, p := range append(append([]*process{}, workers...), scheds...) {
			Expect(p.addr).To(BeEmpty(), "only serve listens for the API")
		}

		// Work queued by any process runs once, on a worker process.
		var ids []uuid.UUID
		for range 6 {
			id, err := h.App.Queue.Enqueue(ctxb, nil, block{})
			Expect(err).NotTo(HaveOccurred())
			ids = append(ids, id)
		}
		workerPIDs := map[int]bool{workers[0].pid(): true, workers[1].pid(): true}
		for _, id := range ids {
			Eventually(func() jobs.Status { return job(id).Status }, "30s", "50ms").Should(Equal(jobs.Completed))
			var result struct{ PID int }
			Expect(job(id).Decode(&result)).To(Succeed())
			Expect(workerPIDs).To(HaveKey(result.PID))
			Expect(job(id).Attempts).To(Equal(1))
		}

		// One scheduler leads.
		Eventually(func() int { return scalar[int]("SELECT count(*) FROM " + tickTable) }, "20s", "50ms").
			Should(BeNumerically(">=", 2))
		Expect(scalar[int]("SELECT count(DISTINCT pid) FROM " + tickTable)).To(Equal(1))
		Expect(scalar[int]("SELECT min(pid) FROM " + tickTable)).To(BeElementOf(scheds[0].pid(), scheds[1].pid()))
	})
})

// expectOneTickPerPeriod checks that over the span the ticks cover there
// are no more of them than periods (plus the one at each end), so never
// two leaders at once, and returns the ticks and their span in seconds.
func expectOneTickPerPeriod() (ticks int, span float64) {
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT extract(epoch FROM max(at) - min(at))::float8 FROM `+tickTable).
		Scan(&span).Error).To(Succeed())
	ticks = scalar[int]("SELECT count(*) FROM " + tickTable)
	ExpectWithOffset(1, float64(ticks)).To(BeNumerically("<=", span/tickEvery.Seconds()+2), "%d ticks in %.2fs", ticks, span)
	return ticks, span
}
