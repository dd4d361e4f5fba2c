package attempts_test

import (
	"context"
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// savedProgress is the JSON of GET /attempts/progress.
type savedProgress struct {
	QuizID     int64             `json:"quiz_id"`
	AttemptID  int64             `json:"attempt_id"`
	Answers    map[string]string `json:"answers"`
	CurrentIdx int               `json:"current_idx"`
	Mode       *string           `json:"mode"`
	Voice      *string           `json:"voice"`
	TimeLeft   *float64          `json:"time_left"`
	StartedAt  *string           `json:"started_at"`
	TotalTime  *float64          `json:"total_time"`
	Revision   *int64            `json:"revision"`
	Device     *string           `json:"device"`
	ExpiresAt  string            `json:"expires_at"`
}

func readProgress(c *Client, quizID int64) *savedProgress {
	res := c.Get(progressPath(quizID))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	if bodyText(res) == "null" {
		return nil
	}
	var p savedProgress
	res.JSON(&p)
	return &p
}

// ageLastSave moves the last save of a learner's progress into the past.
func ageLastSave(u *User, quizID int64, seconds int) {
	exec(`UPDATE attempts.saved_progress SET saved_at = saved_at - make_interval(secs => ?)
		WHERE user_id = ? AND quiz_id = ?`, seconds, u.ID, quizID)
}

var _ = Describe("Saved progress", func() {
	var (
		quiz int64
		ids  []int64
		u    *User
		a    attempt
	)
	BeforeEach(func() {
		quiz, ids = cardioQuiz(quizOpts{limit: 45})
		u = learner()
		a = start(u, quiz, "")
	})

	It("stores every client field and returns it, or null when there is none", func() {
		Expect(readProgress(u.Client(h), quiz)).To(BeNil())
		body := save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "MS"}, map[string]any{
			"current_idx": 2, "mode": "timed", "voice": "tts-1:alloy", "time_left": 1234.5,
			"started_at": "2025-01-02T03:04:05Z", "total_time": 2700})
		res := u.Client(h).Post("/api/v1/attempts/progress", body)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["saved"]).To(BeTrue())

		p := readProgress(u.Client(h), quiz)
		Expect(p).NotTo(BeNil())
		Expect(p.AttemptID).To(Equal(a.ID))
		Expect(p.Answers).To(Equal(map[string]string{fmt.Sprint(ids[0]): "Nitrate", fmt.Sprint(ids[1]): "MS"}))
		Expect(p.CurrentIdx).To(Equal(2))
		Expect(*p.Mode).To(Equal("timed"))
		Expect(*p.Voice).To(Equal("tts-1:alloy"))
		Expect(*p.TimeLeft).To(Equal(1234.5))
		Expect(*p.StartedAt).To(Equal("2025-01-02T03:04:05Z"))
		Expect(*p.TotalTime).To(Equal(2700.0))
		Expect(p.Device).To(BeNil())

		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/progress/%d", a.ID))).To(HaveStatus(204))
		Expect(readProgress(u.Client(h), quiz)).To(BeNil())
		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/progress/%d", a.ID))).To(HaveStatus(204))
	})

	It("stores hostile text exactly as sent, and judges answer keys by the question they name", func() {
		// The body is read in one pass and the saves are written into the
		// combined statement's JSON by hand: both must keep every string.
		hostile := []string{`she said "MS"`, `back\slash \"`, `\u0000 as text`, "line\nbreak\r\tand\x01\x1f\x7f",
			"ünïcødé — \u2028\u2029 🫀", "", `{"answers":{"1":"x"}}`, "</script><b>&amp;</b>", strings.Repeat("é", 400)}
		answers := map[int64]string{}
		for i, s := range hostile {
			answers[ids[i%len(ids)]] += s
		}
		device := `tab "quoted" \ é`
		c := u.Client(h).With("x-quiz-session", device)
		res := c.Post("/api/v1/attempts/progress", save(quiz, a.ID, answers,
			map[string]any{"mode": `"\` + "\t", "voice": hostile[4], "time_left": 0.1 + 0.2, "total_time": 1e21}))
		Expect(res).To(HaveStatus(200))
		want := map[string]string{}
		for id, s := range answers {
			want[fmt.Sprint(id)] = s
		}
		p := readProgress(c, quiz)
		Expect(p.Answers).To(Equal(want))
		Expect(*p.Mode).To(Equal(`"\` + "\t"))
		Expect(*p.Voice).To(Equal(hostile[4]))
		Expect(*p.TimeLeft).To(Equal(0.1 + 0.2))
		Expect(*p.TotalTime).To(Equal(1e21))
		Expect(*p.Device).To(Equal(device))
		for id, s := range want {
			var stored string
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT answers->>? FROM attempts.saved_progress WHERE attempt_id = ?`,
				id, a.ID).Scan(&stored).Error).To(Succeed())
			Expect(stored).To(Equal(s), "question %s as stored", id)
		}

		// A key naming a question of the attempt in another spelling is
		// that question; one naming none is refused; no answers is fine.
		other := "0" + fmt.Sprint(ids[0])
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"answers": map[string]string{other: "Nitrate"}})).To(HaveStatus(200))
		Expect(readProgress(c, quiz).Answers).To(Equal(map[string]string{other: "Nitrate"}))
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"answers": map[string]string{fmt.Sprint(ids[0]): "Nitrate", "999999999": "x"}})).
			To(HaveError(422, "invalid_request"))
		Expect(readProgress(c, quiz).Answers).To(Equal(map[string]string{other: "Nitrate"}), "the refused save changed nothing")
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"answers": map[string]string{}})).To(HaveStatus(200))
		Expect(readProgress(c, quiz).Answers).To(BeEmpty())

		// A device name that is not UTF-8 cannot be stored: refused, and the
		// saved progress is untouched.
		Expect(u.Client(h).With("x-quiz-session", "tab \xff\xfe").Post("/api/v1/attempts/progress",
			map[string]any{"quiz_id": quiz, "attempt_id": a.ID, "answers": map[string]string{fmt.Sprint(ids[0]): "x"}})).
			To(HaveError(422, "invalid_request"))
		p = readProgress(c, quiz)
		Expect(p.Answers).To(BeEmpty())
		Expect(*p.Device).To(Equal(device))
	})

	It("answers 409 to another device while the lock is fresh, and lets it take over after", func() {
		phone := u.Client(h).With("x-quiz-session", "phone")
		laptop := u.Client(h).With("x-quiz-session", "laptop")
		Expect(phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))).
			To(HaveStatus(200))
		Expect(*readProgress(phone, quiz).Device).To(Equal("phone"))

		Expect(laptop.Get(progressPath(quiz))).To(HaveError(409, "conflict"))
		res := laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Warfarin"}, nil))
		Expect(res).To(HaveError(409, "conflict"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		Expect(laptop.Delete(fmt.Sprintf("/api/v1/attempts/progress/%d", a.ID))).To(HaveError(409, "conflict"))
		// A caller naming no device is another device too.
		Expect(u.Client(h).Get(progressPath(quiz))).To(HaveError(409, "conflict"))
		// The holder keeps saving.
		Expect(phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Insulin"}, nil))).
			To(HaveStatus(200))

		ageLastSave(u, quiz, 31)
		Expect(readProgress(laptop, quiz).Answers[fmt.Sprint(ids[0])]).To(Equal("Insulin"), "reads after the lock lapses")
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Warfarin"}, nil))).
			To(HaveStatus(200))
		// Now the laptop holds it and the phone waits.
		Expect(phone.Get(progressPath(quiz))).To(HaveError(409, "conflict"))
		Expect(*readProgress(laptop, quiz).Device).To(Equal("laptop"))
	})

	It("lets a named device take over at once from a save that named none", func() {
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, nil, nil))).To(HaveStatus(200))
		tablet := u.Client(h).With("x-quiz-session", "tablet")
		Expect(tablet.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[2]: "II"}, nil))).
			To(HaveStatus(200))
		Expect(*readProgress(tablet, quiz).Device).To(Equal("tablet"))
	})

	It("never loses the newest of racing saves from one device", func() {
		phone := u.Client(h).With("x-quiz-session", "phone")
		const n = 12
		var wg sync.WaitGroup
		results := make([]*Response, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = phone.Post("/api/v1/attempts/progress", save(quiz, a.ID,
					map[int64]string{ids[0]: fmt.Sprintf("answer %d", i+1)},
					map[string]any{"revision": i + 1, "current_idx": i + 1}))
			}()
		}
		wg.Wait()
		for _, res := range results {
			Expect(res).To(HaveStatus(200))
		}
		p := readProgress(phone, quiz)
		Expect(*p.Revision).To(Equal(int64(n)))
		Expect(p.CurrentIdx).To(Equal(n))
		Expect(p.Answers[fmt.Sprint(ids[0])]).To(Equal(fmt.Sprintf("answer %d", n)))

		// An older save arriving late changes nothing and says so.
		res := phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "late"},
			map[string]any{"revision": 3}))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["saved"]).To(BeFalse())
		Expect(res.Map()["stale"]).To(BeTrue())
		Expect(readProgress(phone, quiz).Answers[fmt.Sprint(ids[0])]).To(Equal(fmt.Sprintf("answer %d", n)))
	})

	// Saves arriving together are stored by one statement (the app's
	// combiner): each must still get its own answer and only the fitting
	// ones may be stored.
	It("judges each of many learners' simultaneous saves on its own", func() {
		const n = 24
		type sitter struct {
			u    *User
			a    attempt
			want int // the status its save must get
		}
		sitters := make([]sitter, n)
		for i := range sitters {
			s := sitter{u: learner(), want: 200}
			s.a = start(s.u, quiz, "")
			switch {
			case i%6 == 5:
				submit(s.u, s.a.ID, nil)
				s.want = 409
			case i%4 == 3:
				s.want = 422 // answers a question its attempt does not hold
			case i%7 == 6:
				s.want = 404 // names another learner's attempt
			}
			sitters[i] = s
		}
		// One learner's clock says year 0 (a date Postgres cannot read as
		// text): it is stored as sent, and its batch-mates' saves too.
		startedAt := func(i int) string {
			if i == 0 {
				return "0000-01-01T00:00:00Z"
			}
			return fmt.Sprintf("2026-11-26T10:%02d:00.123456Z", i)
		}
		results := make([]*Response, n)
		var wg sync.WaitGroup
		for i, s := range sitters {
			answers := map[int64]string{ids[0]: fmt.Sprintf("learner %d", i), ids[1]: "Ünïcødé \"quoted\" \u2028"}
			attemptID := s.a.ID
			switch s.want {
			case 422:
				answers[999999] = "x"
			case 404:
				attemptID = a.ID // the suite's learner's attempt
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = s.u.Client(h).With("x-quiz-session", fmt.Sprint("device ", i)).Post(
					"/api/v1/attempts/progress", save(quiz, attemptID, answers,
						map[string]any{"revision": i, "current_idx": i, "time_left": 100.5 + float64(i),
							"started_at": startedAt(i)}))
			}()
		}
		wg.Wait()
		for i, s := range sitters {
			Expect(results[i].Status).To(Equal(s.want), "learner %d: %s", i, results[i].Body)
			p := readProgress(s.u.Client(h).With("x-quiz-session", fmt.Sprint("device ", i)), quiz)
			if s.want != 200 {
				Expect(p).To(BeNil(), "learner %d", i)
				continue
			}
			Expect(results[i].Map()["saved"]).To(BeTrue())
			Expect(p.AttemptID).To(Equal(s.a.ID))
			Expect(p.Answers).To(Equal(map[string]string{fmt.Sprint(ids[0]): fmt.Sprintf("learner %d", i),
				fmt.Sprint(ids[1]): "Ünïcødé \"quoted\" \u2028"}))
			Expect(*p.Revision).To(Equal(int64(i)))
			Expect(p.CurrentIdx).To(Equal(i))
			Expect(*p.TimeLeft).To(Equal(100.5 + float64(i)))
			Expect(*p.Device).To(Equal(fmt.Sprint("device ", i)))
			Expect(*p.StartedAt).To(Equal(startedAt(i)))
		}
		Expect(readProgress(u.Client(h), quiz)).To(BeNil(), "no save reached the suite learner's attempt")
	})

	It("never leaves progress behind a submission racing with saves", func() {
		phone := u.Client(h).With("x-quiz-session", "phone")
		var wg sync.WaitGroup
		saves := make([]*Response, 10)
		for i := range saves {
			wg.Add(1)
			go func() {
				defer wg.Done()
				saves[i] = phone.Post("/api/v1/attempts/progress", save(quiz, a.ID,
					map[int64]string{ids[0]: "Nitrate"}, map[string]any{"revision": i}))
			}()
		}
		var submitted *Response
		wg.Add(1)
		go func() {
			defer wg.Done()
			submitted = u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID), nil)
		}()
		wg.Wait()
		Expect(submitted).To(HaveStatus(200))
		for _, res := range saves {
			Expect(res.Status).To(Or(Equal(200), Equal(409)), string(res.Body))
		}
		Expect(readProgress(phone, quiz)).To(BeNil())
		Expect(getDetail(u, a.ID).CompletedAt).NotTo(BeNil())
	})

	It("lets other learners' saves through while one waits on its attempt's row lock", func() {
		other := learner()
		b := start(other, quiz, "")
		// Another transaction holds the attempt's row, as a slow submit of it
		// would: the save of that attempt waits inside its statement.
		held, release := make(chan struct{}), make(chan struct{})
		locker := make(chan error, 1)
		go func() {
			locker <- h.App.DB.Tx(ctxb, func(ctx context.Context) error {
				if err := h.App.DB.Conn(ctx).Exec(`SELECT FROM attempts.attempts WHERE id = ? FOR UPDATE`, a.ID).Error; err != nil {
					return err
				}
				close(held)
				<-release
				return nil
			})
		}()
		Eventually(held).Should(BeClosed())
		var once sync.Once
		unlock := func() { once.Do(func() { close(release) }) }
		DeferCleanup(unlock)

		stuck := make(chan *Response, 1)
		go func() {
			stuck <- u.Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))
		}()
		Eventually(func() (n int) {
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%jsonb_to_recordset%'`).
				Scan(&n).Error).To(Succeed())
			return n
		}).Should(Equal(1), "the save waits on the lock")

		// The other learner's save is stored and acknowledged meanwhile, long
		// before the stuck statement would give up (15 s).
		saved := make(chan *Response, 1)
		go func() {
			saved <- other.Client(h).Post("/api/v1/attempts/progress", save(quiz, b.ID, map[int64]string{ids[1]: "MS"}, nil))
		}()
		var res *Response
		Eventually(saved, "5s").Should(Receive(&res), "the other learner's save waited behind the locked one")
		Expect(res).To(HaveStatus(200))
		Expect(readProgress(other.Client(h), quiz).Answers).To(Equal(map[string]string{fmt.Sprint(ids[1]): "MS"}))
		Expect(stuck).NotTo(Receive(), "the locked attempt's save is still waiting")

		unlock()
		Expect(<-locker).To(Succeed())
		Eventually(stuck, "10s").Should(Receive(&res))
		Expect(res).To(HaveStatus(200))
		Expect(readProgress(u.Client(h), quiz).Answers).To(Equal(map[string]string{fmt.Sprint(ids[0]): "Nitrate"}))
	})

	It("expires progress 7 days after its last save", func() {
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))).
			To(HaveStatus(200))
		p := readProgress(u.Client(h), quiz)
		Expect(p).NotTo(BeNil())
		exec(`UPDATE attempts.saved_progress SET saved_at = saved_at - interval '6 days 23 hours',
			expires_at = expires_at - interval '6 days 23 hours' WHERE user_id = ?`, u.ID)
		Expect(readProgress(u.Client(h), quiz)).NotTo(BeNil(), "still there just under 7 days")
		exec(`UPDATE attempts.saved_progress SET saved_at = saved_at - interval '2 hours',
			expires_at = expires_at - interval '2 hours' WHERE user_id = ?`, u.ID)
		Expect(readProgress(u.Client(h), quiz)).To(BeNil())
		var n int
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM attempts.saved_progress WHERE user_id = ?`, u.ID).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero(), "an expired row is removed when read")
		// The attempt itself is untouched and can be resumed.
		Expect(start(u, quiz, "").ID).To(Equal(a.ID))
	})

	It("keeps each attempt's progress apart: studying a quiz never overwrites a timed attempt's", func() {
		c := u.Client(h)
		Expect(c.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))).
			To(HaveStatus(200))
		study := start(u, quiz, "&mode=learning")
		Expect(c.Post("/api/v1/attempts/progress", save(quiz, study.ID, map[int64]string{ids[0]: "Insulin"}, nil))).
			To(HaveStatus(200))
		// The quiz's latest progress is the study session's...
		Expect(readProgress(c, quiz).AttemptID).To(Equal(study.ID))
		// ...and the timed attempt's is still there, by attempt.
		res := c.Get(fmt.Sprintf("%s&attempt_id=%d", progressPath(quiz), a.ID))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["answers"]).To(HaveKeyWithValue(fmt.Sprint(ids[0]), "Nitrate"))
		Expect(*submit(u, a.ID, nil).Score).To(Equal(1))
		// An attempt of another quiz is refused.
		other, _ := cardioQuiz(quizOpts{})
		Expect(c.Get(fmt.Sprintf("%s&attempt_id=%d", progressPath(other), a.ID))).To(HaveError(422, "invalid_request"))
	})

	It("refuses saves that do not fit the attempt", func() {
		c := u.Client(h)
		other, _ := cardioQuiz(quizOpts{})
		Expect(c.Post("/api/v1/attempts/progress", save(other, a.ID, nil, nil))).To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{999999: "x"}, nil))).
			To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"answers": map[string]string{"q1": "x"}})).To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[1]: strings.Repeat("x", 2001)}, nil))).
			To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz})).To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"unknown": true})).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/attempts/progress")).To(HaveError(422, "invalid_request"))
		Expect(readProgress(c, quiz)).To(BeNil())
	})

	It("refuses saves to a submitted attempt", func() {
		submit(u, a.ID, nil)
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, nil, nil))).To(HaveError(409, "conflict"))
	})

	It("is the owner's only", func() {
		other := learner()
		c := other.Client(h)
		Expect(c.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "x"}, nil))).
			To(HaveError(404, "not_found"))
		Expect(c.Delete(fmt.Sprintf("/api/v1/attempts/progress/%d", a.ID))).To(HaveError(404, "not_found"))
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "mine"}, nil))).
			To(HaveStatus(200))
		Expect(readProgress(c, quiz)).To(BeNil(), "another learner sees only their own progress")
		Expect(c.Get(fmt.Sprintf("%s&attempt_id=%d", progressPath(quiz), a.ID))).To(HaveError(404, "not_found"))
		Expect(readProgress(u.Client(h), quiz).Answers[fmt.Sprint(ids[0])]).To(Equal("mine"))
	})
})
