package plans_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/plans"
	"github.com/roundsedu/rounds/platform/auth"
)

// decks stands in for the flashcards module: the deck ids that exist.
type decks map[int64]bool

func (d decks) DeckExists(_ context.Context, id int64) (bool, error) { return d[id], nil }

var _ = Describe("Exams", func() {
	It("draw a timed paper to a blueprint, are sat through attempts, and report per-domain scores, the percentile and the weakest domains", func() {
		cardio, renal := questions(2), questions(2)
		body := q{"title": "Mock final", "size": 4, "time_limit_minutes": 30, "seed": 1, "domains": []q{
			{"name": "Cardiology", "weight": 1, "question_ids": cardio, "article_ids": []int64{9}, "deck_ids": []int64{4}},
			{"name": "Renal", "weight": 1, "question_ids": renal}}}
		Expect(mod.Client(h).Post(api+"/exams", body)).To(HaveError(422, "invalid_request"), "no library to check article 9")
		withPorts(bankTests(), library{9: nil}, decks{4: true})
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(api+"/exams", body)).To(HaveError(403, "forbidden"))

		res := mod.Client(h).Post(api+"/exams", body)
		Expect(res).To(HaveStatus(201))
		exam := res.ID()
		Expect(res.Map()).To(And(HaveKeyWithValue("question_count", BeNumerically("==", 4)),
			HaveKeyWithValue("domains", []any{"Cardiology", "Renal"}), HaveKeyWithValue("is_published", BeNumerically("==", 0))))
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(at("/exams/%d", exam))).To(HaveError(404, "not_found"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(at("/exams/%d/start", exam), nil)).To(HaveError(404, "not_found"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Patch(at("/exams/%d/publish", exam), nil)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Patch(at("/exams/999999999/publish"), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(at("/exams/%d/publish?published=true", exam), nil).Map()).
			To(HaveKeyWithValue("is_published", BeNumerically("==", 1)))

		var paper []int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT jsonb_array_elements(question_ids)::bigint FROM plans.exams WHERE id = ?`, exam).
			Scan(&paper).Error).To(Succeed())
		limit := 30

		// Three learners sit it: all right, cardiology only, one renal question.
		sit := func(right map[int64]bool) (*User, int64) {
			u := h.NewUser(auth.RoleUser)
			s := u.Client(h).Post(at("/exams/%d/start", exam), nil)
			ExpectWithOffset(1, s).To(HaveStatus(200))
			quiz := int64(s.Map()["quiz_id"].(float64))
			ExpectWithOffset(1, savedTest(quiz)).To(Equal(bankQuiz{Owner: u.ID, Mode: "timed", TimeLimitMinutes: &limit,
				Questions: paper}), "the paper, timed to the exam")
			a := u.Client(h).Post(at("/attempts/start?quiz_id=%d", quiz), nil)
			ExpectWithOffset(1, a).To(HaveStatus(200))
			answers := q{}
			for _, id := range append(append([]int64{}, cardio...), renal...) {
				answers[fmt.Sprint(id)] = map[bool]string{true: "Yes", false: "No"}[right[id]]
			}
			ExpectWithOffset(1, u.Client(h).Post(at("/attempts/%d/submit", a.ID()), q{"answers": answers})).To(HaveStatus(200))
			return u, a.ID()
		}
		all, aAll := sit(map[int64]bool{cardio[0]: true, cardio[1]: true, renal[0]: true, renal[1]: true})
		heart, _ := sit(map[int64]bool{cardio[0]: true, cardio[1]: true})
		kidney, _ := sit(map[int64]bool{renal[0]: true})
		Expect(all.Client(h).Post(at("/exams/%d/start", exam), nil).Map()["reused"]).To(BeTrue())

		// Every sitting is recorded (by the event handler) before any figure is read.
		Eventually(func() int64 {
			var n int64
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.exam_results WHERE exam_id = ?`, exam).Scan(&n).Error).To(Succeed())
			return n
		}).WithTimeout(20 * time.Second).WithPolling(50 * time.Millisecond).Should(BeNumerically("==", 3))
		report := func(u *User) map[string]any {
			var out map[string]any
			Eventually(func() int {
				res := u.Client(h).Get(at("/exam-results/%d", exam))
				if res.Status == 200 {
					out = res.Map()
				}
				return res.Status
			}).WithTimeout(20 * time.Second).WithPolling(50 * time.Millisecond).Should(Equal(200))
			return out
		}
		// Percentile = (below + half the ties, self included) / sitters: 4 → (2 + .5)/3, 2 → (1 + .5)/3, 1 → .5/3.
		r := report(all)
		Expect(r).To(And(HaveKeyWithValue("score", BeNumerically("==", 4)), HaveKeyWithValue("percentage", BeNumerically("==", 100))))
		r = report(heart)
		Expect(r).To(And(HaveKeyWithValue("score", BeNumerically("==", 2)), HaveKeyWithValue("total", BeNumerically("==", 4)),
			HaveKeyWithValue("percentage", BeNumerically("==", 50)), HaveKeyWithValue("sitters", BeNumerically("==", 3)),
			HaveKeyWithValue("percentile", BeNumerically("==", 50))))
		Expect(r["domains"]).To(Equal([]any{
			map[string]any{"name": "Cardiology", "correct": 2.0, "total": 2.0, "percentage": 100.0, "article_ids": []any{9.0}, "deck_ids": []any{4.0}},
			map[string]any{"name": "Renal", "correct": 0.0, "total": 2.0, "percentage": 0.0, "article_ids": []any{}, "deck_ids": []any{}},
		}))
		Expect(r["weakest"].([]any)[0]).To(HaveKeyWithValue("name", "Renal"))
		r = report(kidney)
		Expect(r).To(And(HaveKeyWithValue("score", BeNumerically("==", 1)), HaveKeyWithValue("percentile", BeNumerically("==", 16.7))))
		Expect(r["weakest"].([]any)[0]).To(And(HaveKeyWithValue("name", "Cardiology"), HaveKeyWithValue("percentage", 0.0),
			HaveKeyWithValue("article_ids", []any{9.0}), HaveKeyWithValue("deck_ids", []any{4.0})))
		Expect(report(all)["percentile"]).To(BeNumerically("==", 83.3))

		// A redelivered event, or a later sitting, does not replace the first result.
		quizAll := int64(all.Client(h).Post(at("/exams/%d/start", exam), nil).Map()["quiz_id"].(float64))
		for _, a := range []int64{aAll, aAll + 1000} {
			Expect(app.Lookup[*plans.Module](h.App).CompleteBlocks(ctxb, attempts.AttemptCompleted{AttemptID: a,
				UserID: all.ID, QuizID: quizAll, CompletedAt: time.Now()})).To(Succeed())
		}
		var attemptID int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT attempt_id FROM plans.exam_results WHERE exam_id = ? AND user_id = ?`, exam, all.ID).
			Scan(&attemptID).Error).To(Succeed())
		Expect(attemptID).To(Equal(aAll))

		Expect(h.NewUser(auth.RoleUser).Client(h).Get(at("/exam-results/%d", exam))).To(HaveError(404, "not_found"))

		// Closed: learners no longer see or start it, but a result already recorded stays readable.
		Expect(mod.Client(h).Patch(at("/exams/%d/publish?published=false", exam), nil)).To(HaveStatus(200))
		Expect(heart.Client(h).Get(at("/exams/%d", exam))).To(HaveError(404, "not_found"))
		Expect(heart.Client(h).Post(at("/exams/%d/start", exam), nil)).To(HaveError(404, "not_found"))
		Expect(heart.Client(h).Get(at("/exam-results/%d", exam)).Map()).To(HaveKeyWithValue("score", BeNumerically("==", 2)))
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(at("/exam-results/%d", exam))).To(HaveError(404, "not_found"))
	})

	It("are listed newest first, published ones to learners and every one to moderators", func() {
		pool := questions(2)
		newExam := func(title string, publish bool) int64 {
			res := mod.Client(h).Post(api+"/exams", q{"title": title, "size": 1, "time_limit_minutes": 5, "publish": publish,
				"domains": []q{{"name": "All", "weight": 1, "question_ids": pool}}})
			ExpectWithOffset(1, res).To(HaveStatus(201))
			return res.ID()
		}
		open, draft := newExam("Open paper", true), newExam("Draft paper", false)
		listed := func(u *User) []int64 {
			res := u.Client(h).Get(api + "/exams?limit=200")
			ExpectWithOffset(1, res).To(HaveStatus(200))
			var ids []int64
			for _, e := range res.List() {
				ids = append(ids, IDOf(e.(map[string]any)))
			}
			ExpectWithOffset(1, res.Header.Get("X-Total-Count")).NotTo(BeEmpty())
			return ids
		}
		learner := listed(h.NewUser(auth.RoleUser))
		Expect(learner).To(ContainElement(open))
		Expect(learner).NotTo(ContainElement(draft))
		Expect(listed(mod)).To(ContainElements(draft, open))
		Expect(listed(mod)[0]).To(Equal(draft), "newest first")
		res := mod.Client(h).Get(api + "/exams?limit=1")
		Expect(res.List()).To(HaveLen(1))
		var total int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.exams`).Scan(&total).Error).To(Succeed())
		Expect(res.Header.Get("X-Total-Count")).To(Equal(fmt.Sprint(total)))
	})

	It("refuses a paper the bank cannot fill, naming the short domain", func() {
		res := mod.Client(h).Post(api+"/exams", q{"title": "Too big", "size": 5, "time_limit_minutes": 10,
			"domains": []q{{"name": "Renal", "weight": 1, "question_ids": questions(2)}}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(string(res.Body)).To(ContainSubstring(`domain \"Renal\" is short by 3 questions (needs 5, has 2 unused)`))
	})
})
