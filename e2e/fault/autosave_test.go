package fault_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

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

// autosaveLoad is learners saving back to back on one deployment while a
// test breaks its database, recording every answer.
type autosaveLoad struct {
	h      *Harness
	savers []*saver
	stop   atomic.Bool
	wg     sync.WaitGroup

	mu          sync.Mutex
	statuses    map[int]int
	unexpected  []*Response // anything but 200 and 503 unavailable
	restored    time.Time   // when the database was given back
	firstOK     time.Time   // first acknowledged save after restored
	lastFailure time.Time
}

// startAutosave starts learners saving and returns once each has had two
// saves acknowledged on average.
func startAutosave(h *Harness, mod *User, learners int) *autosaveLoad {
	quiz, questions := publishedQuizOn(h, mod, 5)
	l := &autosaveLoad{h: h, statuses: map[int]int{}}
	for range learners {
		u := h.NewUser(auth.RoleUser)
		l.savers = append(l.savers, &saver{user: u,
			attempt: id(u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil))})
	}
	for _, s := range l.savers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for rev := int64(1); !l.stop.Load(); rev++ {
				res := s.user.Client(h).With("X-Quiz-Session", "fault-device").Post("/api/v1/attempts/progress", map[string]any{
					"quiz_id": quiz, "attempt_id": s.attempt, "mode": "timed", "revision": rev,
					"answers": map[string]string{itoa(questions[rev%int64(len(questions))]): "Bravo"}, "current_idx": rev % 5})
				l.record(s, rev, res)
				if res.Status != http.StatusOK {
					// A client backs off a little after a failed save.
					time.Sleep(50 * time.Millisecond)
				}
			}
		}()
	}
	Eventually(func() int { return l.count(http.StatusOK) }, "20s", "20ms").Should(BeNumerically(">=", 2*learners))
	return l
}

func (l *autosaveLoad) record(s *saver, rev int64, res *Response) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.statuses[res.Status]++
	if res.Status == http.StatusOK {
		s.acked.Store(rev)
		if !l.restored.IsZero() && l.firstOK.IsZero() {
			l.firstOK = now
		}
		return
	}
	if res.Status != http.StatusServiceUnavailable || res.ErrorCode() != "unavailable" {
		l.unexpected = append(l.unexpected, res)
	}
	l.lastFailure = now
}

// count is how many answers had status.
func (l *autosaveLoad) count(status int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.statuses[status]
}

// markRestored notes that the database is back from now on.
func (l *autosaveLoad) markRestored() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.restored = time.Now()
}

// finish waits for the saves to succeed again (the first, then two per
// learner), stops the learners and checks that every acknowledged save is
// stored and that nothing but 200 and 503 unavailable was answered. It
// returns the first successful save and the last failure after restored.
func (l *autosaveLoad) finish() (firstOK, lastFailure time.Duration) {
	Eventually(func() bool { l.mu.Lock(); defer l.mu.Unlock(); return !l.firstOK.IsZero() }, "30s", "20ms").Should(BeTrue())
	before := l.count(http.StatusOK)
	Eventually(func() int { return l.count(http.StatusOK) }, "30s", "20ms").Should(BeNumerically(">=", before+2*len(l.savers)))
	l.stop.Store(true)
	l.wg.Wait()

	// The stored revision is at least the last one the learner was told was saved.
	for _, s := range l.savers {
		var stored int64
		Expect(l.h.App.DB.Conn(ctxb).Raw("SELECT revision FROM attempts.saved_progress WHERE attempt_id = ?", s.attempt).
			Scan(&stored).Error).To(Succeed())
		Expect(stored).To(BeNumerically(">=", s.acked.Load()), "attempt %d", s.attempt)
	}
	Expect(l.unexpected).To(BeEmpty(), "only 200 or 503 unavailable")
	return l.firstOK.Sub(l.restored), l.lastFailure.Sub(l.restored)
}
