package fault_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Serial: it owns the helper processes it starts, and counts the jobs and
// ticks they make.
var _ = Describe("Several replicas of each role under load", Serial, func() {
	It("loses no acknowledged save when a serve replica is killed mid-run, fails only what was in flight on it, and runs jobs and ticks once", func() {
		Expect(h.App.DB.Conn(ctxb).Exec(tickSchema).Error).To(Succeed())
		Expect(h.App.DB.Conn(ctxb).Exec("TRUNCATE " + tickTable).Error).To(Succeed())
		DeferCleanup(stopHelpers)
		ps := startHelpers(app.RoleServe, app.RoleServe, app.RoleServe,
			app.RoleWorker, app.RoleWorker, app.RoleScheduler, app.RoleScheduler)
		serves, workers, scheds := ps[:3], ps[3:5], ps[5:]
		lb := StartBalancer(serves[0].addr, serves[1].addr, serves[2].addr)
		DeferCleanup(lb.Close)

		const learners = 9
		soak := startSoak(lb, learners)
		DeferCleanup(soak.halt)

		// Work queued while the soak runs runs once each, on a worker process.
		var queued []uuid.UUID
		for range 12 {
			id, err := h.App.Queue.Enqueue(ctxb, nil, block{})
			Expect(err).NotTo(HaveOccurred())
			queued = append(queued, id)
		}

		// Another device of a learner is refused by every replica while the
		// first device holds the attempt: the device lock lives in the
		// database, not in the process that took it.
		other := soak.savers[0].user.Client(h).At(lb.URL).With("X-Quiz-Session", "other-device")
		refusedBy := map[string]bool{}
		for i := 0; len(refusedBy) < 3 && i < 60; i++ { // the soak's requests take turns too
			res := other.Get(fmt.Sprintf("/api/v1/attempts/progress?quiz_id=%d", soak.quiz))
			Expect(res).To(HaveStatus(http.StatusConflict))
			refusedBy[res.Header.Get(BackendHeader)] = true
		}
		Expect(refusedBy).To(HaveLen(3))

		for _, p := range serves {
			Expect(lb.Served(p.addr)).To(BeNumerically(">", 0), "every serve replica takes a share")
		}
		killed := serves[0]
		killed.kill()
		killedAt := time.Now()
		soak.await(3) // every learner has three more saves acknowledged
		servedAfter := lb.Served(killed.addr)
		soak.await(2)
		Expect(lb.Down(killed.addr)).To(BeTrue())
		Expect(lb.Served(killed.addr)).To(Equal(servedAfter), "nothing goes to the killed replica once it refuses")
		soak.halt()

		// No acknowledged save lost: each is stored, at or past the revision acknowledged.
		for _, s := range soak.savers {
			var stored int64
			Expect(h.App.DB.Conn(ctxb).Raw("SELECT revision FROM attempts.saved_progress WHERE attempt_id = ?", s.attempt).
				Scan(&stored).Error).To(Succeed())
			Expect(stored).To(BeNumerically(">=", s.acked.Load()), "attempt %d", s.attempt)
		}
		// The only failures are requests in flight on the killed replica.
		for _, f := range soak.failures {
			Expect(f.status).To(Equal(http.StatusBadGateway), "%s %d from %s: %s", f.what, f.status, f.backend, f.body)
			Expect(f.backend).To(Equal(killed.addr), f.what)
			Expect(f.sent).To(BeTemporally("<", killedAt), "%s sent after the kill", f.what)
		}
		// A save read back from another replica than the one that took it
		// shows it, before and after the kill.
		Expect(soak.stale).To(BeEmpty())
		Expect(soak.crossReads.Load()).To(BeNumerically(">", int64(learners)))

		workerPIDs := map[int]bool{workers[0].pid(): true, workers[1].pid(): true}
		ranOn := map[int]int{}
		for _, id := range queued {
			var rec *jobs.Record
			Eventually(func() jobs.Status {
				var err error
				rec, err = h.App.Queue.Get(ctxb, id)
				Expect(err).NotTo(HaveOccurred())
				return rec.Status
			}, "30s", "50ms").Should(Equal(jobs.Completed))
			var result struct{ PID int }
			Expect(rec.Decode(&result)).To(Succeed())
			Expect(workerPIDs).To(HaveKey(result.PID))
			Expect(rec.Attempts).To(Equal(1))
			ranOn[result.PID]++
		}

		// One scheduler leads: its ticks, one per period.
		Eventually(func() int { return scalar[int]("SELECT count(*) FROM " + tickTable) }, "20s", "50ms").
			Should(BeNumerically(">=", 3))
		Expect(scalar[int]("SELECT count(DISTINCT pid) FROM " + tickTable)).To(Equal(1))
		Expect(scalar[int]("SELECT min(pid) FROM " + tickTable)).To(BeElementOf(scheds[0].pid(), scheds[1].pid()))
		ticks, span := expectOneTickPerPeriod()

		AddReportEntry("serve x3, worker x2, scheduler x2 behind a balancer; one serve killed", fmt.Sprintf(
			"%d learners, %d requests (%d saves acknowledged), %d in flight on the killed replica answered 502, %d saves read back on another replica; %d jobs ran once (per worker %v); %d ticks in %.1fs by one leader",
			learners, soak.requests.Load(), soak.acks.Load(), len(soak.failures), soak.crossReads.Load(), len(queued), ranOn, ticks, span))
	})
})

// soak is learners autosaving through a balancer back to back, each
// reading its progress back every third save and its dashboard every
// fifth, as the load suite's learners do between answers.
type soak struct {
	lb      *Balancer
	quiz    int64
	savers  []*saver
	stop    atomic.Bool
	wg      sync.WaitGroup
	stopped sync.Once

	requests, acks, crossReads atomic.Int64

	mu       sync.Mutex
	failures []failure
	stale    []string // a read back that missed an acknowledged save
}

// failure is an answer other than the expected one.
type failure struct {
	what, backend, body string
	status              int
	sent                time.Time
}

// startSoak starts the learners and returns once each has had two saves
// acknowledged.
func startSoak(lb *Balancer, learners int) *soak {
	quiz, questions := publishedQuiz(5)
	s := &soak{lb: lb, quiz: quiz}
	for range learners {
		u := h.NewUser(auth.RoleUser)
		s.savers = append(s.savers, &saver{user: u,
			attempt: id(u.Client(h).At(lb.URL).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil))})
	}
	for _, sv := range s.savers {
		s.wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer s.wg.Done()
			c := sv.user.Client(h).At(lb.URL).With("X-Quiz-Session", "soak-device")
			for rev := int64(1); !s.stop.Load(); rev++ {
				sent := time.Now()
				res := c.Post("/api/v1/attempts/progress", map[string]any{
					"quiz_id": quiz, "attempt_id": sv.attempt, "mode": "timed", "revision": rev,
					"answers": map[string]string{itoa(questions[rev%int64(len(questions))]): "Bravo"}, "current_idx": rev % 5})
				if !s.check("save", sent, res, http.StatusOK) {
					time.Sleep(50 * time.Millisecond) // a client backs off a little after a failed save
					continue
				}
				sv.acked.Store(rev)
				s.acks.Add(1)
				savedBy := res.Header.Get(BackendHeader)
				if rev%3 == 0 {
					s.readBack(c, sv, rev, savedBy)
				}
				if rev%5 == 0 {
					sent := time.Now()
					s.check("dashboard", sent, c.Get("/api/v1/attempts/stats/dashboard"), http.StatusOK)
				}
			}
		}()
	}
	s.await(2)
	return s
}

// readBack reads the learner's progress and notes a miss of the save
// acknowledged as rev.
func (s *soak) readBack(c *Client, sv *saver, rev int64, savedBy string) {
	sent := time.Now()
	res := c.Get(fmt.Sprintf("/api/v1/attempts/progress?quiz_id=%d", s.quiz))
	if !s.check("read back", sent, res, http.StatusOK) {
		return
	}
	var p struct {
		AttemptID int64 `json:"attempt_id"`
		Revision  int64 `json:"revision"`
	}
	res.JSON(&p)
	if p.AttemptID != sv.attempt || p.Revision < rev {
		s.mu.Lock()
		s.stale = append(s.stale, fmt.Sprintf("attempt %d saved %d on %s, read %+v on %s",
			sv.attempt, rev, savedBy, p, res.Header.Get(BackendHeader)))
		s.mu.Unlock()
	}
	if res.Header.Get(BackendHeader) != savedBy {
		s.crossReads.Add(1)
	}
}

// check counts the answer and keeps it as a failure unless it has the
// status wanted.
func (s *soak) check(what string, sent time.Time, res *Response, want int) bool {
	s.requests.Add(1)
	if res.Status == want {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, failure{what: what, backend: res.Header.Get(BackendHeader),
		body: string(res.Body), status: res.Status, sent: sent})
	return false
}

// await returns once every learner has had n more saves acknowledged.
func (s *soak) await(n int64) {
	var want []int64
	for _, sv := range s.savers {
		want = append(want, sv.acked.Load()+n)
	}
	EventuallyWithOffset(1, func() bool {
		for i, sv := range s.savers {
			if sv.acked.Load() < want[i] {
				return false
			}
		}
		return true
	}, "30s", "20ms").Should(BeTrue())
}

// halt stops the learners and waits for them.
func (s *soak) halt() {
	s.stopped.Do(func() {
		s.stop.Store(true)
		s.wg.Wait()
	})
}
