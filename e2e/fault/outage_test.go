package fault_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// saver is one learner autosaving a timed test back to back, keeping the
// highest revision the server acknowledged.
type saver struct {
	user    *User
	attempt int64
	acked   atomic.Int64
}

var _ = Describe("The database cut off under autosave load", Serial, func() {
	It("loses no acknowledged save, answers 503 (never 500) while down, and recovers by itself", func() {
		const learners = 12
		quiz, questions := publishedQuiz(5)
		savers := make([]*saver, learners)
		for i := range savers {
			u := h.NewUser(auth.RoleUser)
			savers[i] = &saver{user: u, attempt: id(u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil))}
		}

		var (
			stop                 atomic.Bool
			mu                   sync.Mutex
			statuses             = map[int]int{}
			unexpected           []*Response
			lastFailure, firstOK time.Time
			restored             time.Time
			wg                   sync.WaitGroup
		)
		for _, s := range savers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for rev := int64(1); !stop.Load(); rev++ {
					res := s.user.Client(h).With("X-Quiz-Session", "fault-device").Post("/api/v1/attempts/progress", map[string]any{
						"quiz_id": quiz, "attempt_id": s.attempt, "mode": "timed", "revision": rev,
						"answers": map[string]string{itoa(questions[rev%int64(len(questions))]): "Bravo"}, "current_idx": rev % 5})
					now := time.Now()
					mu.Lock()
					statuses[res.Status]++
					if res.Status == http.StatusOK {
						s.acked.Store(rev)
						if !restored.IsZero() && firstOK.IsZero() {
							firstOK = now
						}
					} else {
						if res.Status != http.StatusServiceUnavailable || res.ErrorCode() != "unavailable" {
							unexpected = append(unexpected, res)
						}
						lastFailure = now
					}
					mu.Unlock()
					if res.Status != http.StatusOK {
						// A client backs off a little after a failed save.
						time.Sleep(50 * time.Millisecond)
					}
				}
			}()
		}
		okCount := func() int { mu.Lock(); defer mu.Unlock(); return statuses[http.StatusOK] }
		Eventually(okCount, "20s", "20ms").Should(BeNumerically(">=", 2*learners))

		Expect(SetConnectable(ctxb, h.DBURL, false)).To(Succeed())
		DeferCleanup(func() { Expect(SetConnectable(ctxb, h.DBURL, true)).To(Succeed()) })
		cut := time.Now()
		// Down until the learners have been refused a few times each.
		Eventually(func() int { mu.Lock(); defer mu.Unlock(); return statuses[http.StatusServiceUnavailable] }, "30s", "20ms").
			Should(BeNumerically(">=", 3*learners))
		mu.Lock()
		restored = time.Now()
		mu.Unlock()
		Expect(SetConnectable(ctxb, h.DBURL, true)).To(Succeed())
		Eventually(func() bool { mu.Lock(); defer mu.Unlock(); return !firstOK.IsZero() }, "30s", "20ms").Should(BeTrue())
		before := okCount()
		Eventually(okCount, "30s", "20ms").Should(BeNumerically(">=", before+2*learners))
		stop.Store(true)
		wg.Wait()

		// Every acknowledged save is stored: the stored revision is at least
		// the last one the learner was told was saved.
		for _, s := range savers {
			stored := scalar[int64]("SELECT revision FROM attempts.saved_progress WHERE attempt_id = ?", s.attempt)
			Expect(stored).To(BeNumerically(">=", s.acked.Load()), "attempt %d", s.attempt)
		}
		Expect(unexpected).To(BeEmpty(), "only 200 or 503 unavailable")
		AddReportEntry("database cut off under autosave load",
			fmt.Sprintf("%d learners; down %s; first save after reconnect %s later; last failure %s after reconnect; answers %v",
				learners, restored.Sub(cut).Round(time.Millisecond), firstOK.Sub(restored).Round(time.Millisecond), lastFailure.Sub(restored).Round(time.Millisecond), statuses))
	})
})
