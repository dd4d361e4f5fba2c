package plans_test

import (
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

// Issue 33: what a learner sits of a plan or an exam.
var _ = Describe("Reach in study plans, and exam integrity", func() {
	count := func(sql string, args ...any) int64 {
		var n int64
		ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&n).Error).To(Succeed())
		return n
	}

	It("limits a block to what the learner reaches: their favourites and others' grants add nothing", func() {
		withPorts(bankTests(), nil, nil)
		hp := h.HandPick(mod)
		plan := IDOf(newPlan("set"))
		mixed := blocksOf(addBlock(plan, "Mixed", []int64{hp.Unpublished.ID, hp.Ungranted.ID, hp.Open.ID, hp.Withdrawn.ID}))[0]
		closed := blocksOf(addBlock(plan, "Closed", []int64{hp.Unpublished.ID, hp.Ungranted.ID, hp.Withdrawn.ID}))[1]
		Expect(publish(plan, true)).To(HaveStatus(200))
		u := h.NewUser(auth.RoleUser)
		c := u.Client(h)
		for _, id := range hp.Unreached() {
			c.Post(api+"/favorites", q{"question_id": id}) // refused; were one taken, it must still reach nothing
		}

		res := c.Post(at("/study-plans/blocks/%d/start?mode=learning", IDOf(mixed)), nil)
		Expect(res).To(HaveStatus(200))
		quiz := int64(res.Map()["quiz_id"].(float64))
		Expect(savedTest(quiz)).To(Equal(bankQuiz{Owner: u.ID, Mode: "learning", Questions: []int64{hp.Open.ID}}))
		Expect(c.Get(at("/quizzes/%d?study=true", quiz))).To(And(HaveStatus(200), ShowNoneOf(hp.Secrets())))

		res = c.Post(at("/study-plans/blocks/%d/start?mode=learning", IDOf(closed)), nil)
		Expect(res).To(And(HaveError(409, "conflict"), ShowNoneOf(hp.Secrets())))
		Expect(count(`SELECT count(*) FROM plans.block_progress WHERE block_id = ? AND user_id = ?`, IDOf(closed), u.ID)).To(BeZero())
		Expect(count(`SELECT count(*) FROM bank.saved_tests WHERE user_id = ?`, u.ID)).To(BeEquivalentTo(1))
	})

	It("sits an exam paper timed only: no study view or study sitting of it, and only a timed sitting is the result", func() {
		withPorts(bankTests(), nil, nil)
		keys := []AnswerKey{h.NewAnswerKey(mod, nil), h.NewAnswerKey(mod, nil)}
		ids := []int64{keys[0].ID, keys[1].ID}
		src := mod.Client(h).Post(api+"/questions/from-bank", q{"title": "Exam source", "question_ids": ids})
		Expect(src).To(HaveStatus(201))
		Expect(mod.Client(h).Patch(at("/quizzes/%d/publish?published=true", src.ID()), nil)).To(HaveStatus(200))
		res := mod.Client(h).Post(api+"/exams", q{"title": "Sealed paper", "size": 2, "time_limit_minutes": 30, "publish": true,
			"domains": []q{{"name": "All", "weight": 1, "question_ids": ids}}})
		Expect(res).To(HaveStatus(201))
		exam := res.ID()
		var secrets []string
		for _, k := range keys {
			secrets = append(secrets, k.Secrets...)
		}

		u := h.NewUser(auth.RoleUser)
		c := u.Client(h)
		res = c.Post(at("/exams/%d/start", exam), nil)
		Expect(res).To(HaveStatus(200))
		paper := int64(res.Map()["quiz_id"].(float64))

		study := c.Get(at("/quizzes/%d?study=true", paper))
		Expect(study).To(And(HaveStatus(200), ShowNoneOf(secrets)))
		Expect(study.Map()["questions"]).To(HaveEach(HaveKeyWithValue("correct_answer", BeNil())))

		Expect(c.Post(at("/attempts/start?quiz_id=%d&mode=learning", paper), nil)).To(And(HaveError(422, "invalid_request"),
			ShowNoneOf(secrets)))
		Expect(count(`SELECT count(*) FROM attempts.attempts WHERE user_id = ?`, u.ID)).To(BeZero())

		// A study sitting stored before attempts refused one is no result.
		sit := func(all bool, mode string) int64 {
			a := c.Post(at("/attempts/start?quiz_id=%d", paper), nil)
			ExpectWithOffset(1, a).To(HaveStatus(200))
			id := a.ID()
			ExpectWithOffset(1, h.App.DB.Conn(ctxb).Exec(`UPDATE attempts.attempts SET mode = ? WHERE id = ?`, mode, id).Error).
				To(Succeed())
			answers := q{fmt.Sprint(keys[0].ID): keys[0].Answer}
			if all {
				answers[fmt.Sprint(keys[1].ID)] = keys[1].Answer
			}
			ExpectWithOffset(1, c.Post(at("/attempts/%d/submit", id), q{"answers": answers})).To(HaveStatus(200))
			ExpectWithOffset(1, app.Lookup[*plans.Module](h.App).CompleteBlocks(ctxb, attempts.AttemptCompleted{AttemptID: id,
				UserID: u.ID, QuizID: paper, Mode: mode, CompletedAt: time.Now()})).To(Succeed())
			return id
		}
		sit(true, "learning")
		Expect(count(`SELECT count(*) FROM plans.exam_results WHERE exam_id = ? AND user_id = ?`, exam, u.ID)).To(BeZero())
		Expect(c.Get(at("/exam-results/%d", exam))).To(HaveError(404, "not_found"))

		timed := sit(false, "timed")
		var result struct {
			AttemptID int64
			Score     int
		}
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT attempt_id, score FROM plans.exam_results WHERE exam_id = ? AND user_id = ?`,
			exam, u.ID).Scan(&result).Error).To(Succeed())
		Expect(result.AttemptID).To(Equal(timed))
		Expect(result.Score).To(Equal(1))
	})
})
