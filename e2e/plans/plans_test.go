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

var _ = Describe("Study plans", func() {
	It("are built by moderators with fixed question lists, published, retired rather than deleted, and deleted only by an admin", func() {
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(api+"/study-plans", q{"title": "Mine", "kind": "set"})).To(HaveError(403, "forbidden"))

		p := newPlan("set")
		plan := IDOf(p)
		Expect(p).To(And(HaveKeyWithValue("is_published", BeNumerically("==", 0)), HaveKeyWithValue("kind", "set"),
			HaveKeyWithValue("exam_date", "2027-03-01"), HaveKeyWithValue("blocks", BeEmpty())))
		Expect(learner.Client(h).Get(at("/study-plans/%d", plan))).To(HaveError(404, "not_found"))
		Expect(publish(plan, true)).To(HaveError(409, "conflict"))

		ids := questions(3)
		Expect(mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Week 1", "question_ids": []int64{ids[0], 999999999}})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Week 1", "question_ids": []int64{ids[0], ids[0]}})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Week 1", "question_ids": []int64{}})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Week 1", "question_ids": ids[:1],
			"reading": []q{{"article_id": 1}}})).To(HaveError(422, "invalid_request"))
		Expect(learner.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Week 1", "question_ids": ids})).
			To(HaveError(403, "forbidden"))
		d := addBlock(plan, "Week 1", []int64{ids[2], ids[0]})
		Expect(blocksOf(d)[0]).To(And(HaveKeyWithValue("position", BeNumerically("==", 1)),
			HaveKeyWithValue("question_ids", []any{float64(ids[2]), float64(ids[0])})))

		// The list is written once: the database refuses a change.
		err := h.App.DB.Conn(ctxb).Exec(`UPDATE plans.blocks SET question_ids = '[1]' WHERE plan_id = ?`, plan).Error
		Expect(err).To(MatchError(ContainSubstring("fixed at build")))

		Expect(publish(plan, true)).To(HaveStatus(200))
		Expect(learner.Client(h).Get(api + "/study-plans").List()).To(ContainElement(HaveKeyWithValue("id", BeNumerically("==", plan))))
		Expect(learner.Client(h).Post(at("/study-plans/%d/enrol", plan), nil)).To(HaveStatus(200))
		Expect(learner.Client(h).Post(at("/study-plans/%d/enrol", plan), nil).Map()["enrolled"]).To(BeTrue())

		// Deletion: refused for moderators and learners, refused while published even for an admin.
		Expect(mod.Client(h).Delete(at("/study-plans/%d", plan))).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Delete(at("/study-plans/%d", plan))).To(HaveError(403, "forbidden"))
		Expect(admin.Client(h).Delete(at("/study-plans/%d", plan))).To(HaveError(409, "conflict"))

		// Retiring: is_published 0; the enrolled learner keeps it, others lose it and nobody new enrols.
		res := publish(plan, false)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("is_published", BeNumerically("==", 0)), HaveKeyWithValue("retired", true)))
		Expect(learner.Client(h).Get(at("/study-plans/%d", plan))).To(HaveStatus(200))
		Expect(other.Client(h).Get(at("/study-plans/%d", plan))).To(HaveError(404, "not_found"))
		Expect(other.Client(h).Get(api + "/study-plans").List()).NotTo(ContainElement(HaveKeyWithValue("id", BeNumerically("==", plan))))
		var stored struct {
			IsPublished int
			Retired     bool
		}
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT is_published, retired_at IS NOT NULL AS retired FROM plans.plans WHERE id = ?`, plan).
			Scan(&stored).Error).To(Succeed())
		Expect(stored.IsPublished).To(Equal(0))
		Expect(stored.Retired).To(BeTrue())

		Expect(admin.Client(h).Delete(at("/study-plans/%d", plan))).To(HaveStatus(204))
		var left int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.blocks WHERE plan_id = ?`, plan).Scan(&left).Error).To(Succeed())
		Expect(left).To(BeZero())
		Expect(admin.Client(h).Delete(at("/study-plans/%d", plan))).To(HaveError(404, "not_found"))
	})

	It("answers 503 for a block start while nothing builds saved tests", func() {
		withPorts(nil, nil, nil)
		plan := IDOf(newPlan("set"))
		b := IDOf(blocksOf(addBlock(plan, "Week 1", questions(1)))[0])
		Expect(publish(plan, true)).To(HaveStatus(200))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(at("/study-plans/blocks/%d/start?mode=learning", b), nil)).
			To(HaveError(503, "unavailable"))
	})

	It("starts a block as the learner's saved test, reuses it, and completes the block when a sitting is submitted, handed in late or auto-closed", func() {
		st := bankTests()
		withPorts(st, nil, nil)
		ids := questions(4)
		plan := IDOf(newPlan("set"))
		addBlock(plan, "Submitted", ids[:2])
		addBlock(plan, "Handed in", ids[2:3])
		bs := blocksOf(addBlock(plan, "Auto-closed", ids[3:]))
		Expect(publish(plan, true)).To(HaveStatus(200))
		u := h.NewUser(auth.RoleUser)
		Expect(u.Client(h).Post(at("/study-plans/blocks/%d/start?mode=sideways", IDOf(bs[0])), nil)).To(HaveError(422, "invalid_request"))
		Expect(u.Client(h).Post(at("/study-plans/blocks/999999999/start?mode=timed"), nil)).To(HaveError(404, "not_found"))

		start := func(block int64, mode string) map[string]any {
			res := u.Client(h).Post(at("/study-plans/blocks/%d/start?mode=%s", block, mode), nil)
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return res.Map()
		}
		s1 := start(IDOf(bs[0]), "learning")
		Expect(s1["reused"]).To(BeFalse())
		Expect(start(IDOf(bs[0]), "learning")).To(And(HaveKeyWithValue("reused", true), HaveKeyWithValue("quiz_id", s1["quiz_id"])))
		Expect(st.built).To(Equal(1))
		quiz1 := int64(s1["quiz_id"].(float64))
		Expect(savedTest(quiz1)).To(Equal(bankQuiz{Owner: u.ID, Mode: "learning", Questions: ids[:2]}))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(at("/attempts/start?quiz_id=%d", quiz1), nil)).
			To(HaveError(404, "not_found"), "a saved test is its learner's alone")

		sit := func(quiz int64, mode string) int64 {
			res := u.Client(h).Post(at("/attempts/start?quiz_id=%d&mode=%s", quiz, mode), nil)
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return res.ID()
		}
		completed := func(block int64) func() any {
			return func() any {
				for _, b := range blocksOf(u.Client(h).Get(at("/study-plans/%d", plan)).Map()) {
					if IDOf(b) == block {
						return b["completed_at"]
					}
				}
				return nil
			}
		}
		d := u.Client(h).Get(at("/study-plans/%d", plan)).Map()
		Expect(d["enrolled"]).To(BeTrue(), "starting a block enrols")
		Expect(blocksOf(d)[0]).To(And(HaveKeyWithValue("quiz_id", BeNumerically("==", quiz1)), HaveKeyWithValue("mode", "learning"),
			HaveKeyWithValue("completed_at", BeNil())))

		// Submitted.
		a1 := sit(quiz1, "learning")
		Expect(u.Client(h).Post(at("/attempts/%d/submit", a1), q{"answers": q{fmt.Sprint(ids[0]): "Yes"}})).To(HaveStatus(200))
		Eventually(completed(IDOf(bs[0]))).WithTimeout(20 * time.Second).WithPolling(50 * time.Millisecond).ShouldNot(BeNil())
		first := completed(IDOf(bs[0]))()

		// A redelivered event changes nothing.
		Expect(app.Lookup[*plans.Module](h.App).CompleteBlocks(ctxb, attempts.AttemptCompleted{AttemptID: a1 + 1000,
			UserID: u.ID, QuizID: quiz1, CompletedAt: time.Now().Add(time.Hour)})).To(Succeed())
		Expect(completed(IDOf(bs[0]))()).To(Equal(first))
		var attemptID int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT attempt_id FROM plans.block_progress WHERE block_id = ? AND user_id = ?`,
			IDOf(bs[0]), u.ID).Scan(&attemptID).Error).To(Succeed())
		Expect(attemptID).To(Equal(a1))

		// Handed in after the time ran out.
		quiz2 := int64(start(IDOf(bs[1]), "timed")["quiz_id"].(float64))
		limit := 2 // minutes per question
		Expect(savedTest(quiz2)).To(Equal(bankQuiz{Owner: u.ID, Mode: "timed", TimeLimitMinutes: &limit, Questions: ids[2:3]}))
		a2 := sit(quiz2, "timed")
		runOutOfTime(a2)
		Expect(u.Client(h).Post(at("/attempts/%d/submit", a2), nil)).To(HaveStatus(200))
		Eventually(completed(IDOf(bs[1]))).WithTimeout(20 * time.Second).WithPolling(50 * time.Millisecond).ShouldNot(BeNil())

		// Auto-closed when its progress is read after the deadline.
		quiz3 := int64(start(IDOf(bs[2]), "timed")["quiz_id"].(float64))
		a3 := sit(quiz3, "timed")
		runOutOfTime(a3)
		Expect(u.Client(h).Get(at("/attempts/progress?quiz_id=%d", quiz3))).To(HaveStatus(200))
		Eventually(completed(IDOf(bs[2]))).WithTimeout(20 * time.Second).WithPolling(50 * time.Millisecond).ShouldNot(BeNil())
		Expect(u.Client(h).Get(at("/study-plans/%d", plan)).Map()["blocks_completed"]).To(BeNumerically("==", 3))

		// Another learner's sitting of the same quiz completes nothing of theirs.
		v := h.NewUser(auth.RoleUser)
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.block_progress WHERE user_id = ?`, v.ID).Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	It("builds the saved test of only the questions the learner may see, and refuses a block with none", func() {
		withPorts(bankTests(), nil, nil)
		open, closed := questions(2), hidden(2)
		plan := IDOf(newPlan("set"))
		addBlock(plan, "Mixed", []int64{closed[0], open[1], closed[1], open[0]})
		bs := blocksOf(addBlock(plan, "Closed", closed))
		Expect(publish(plan, true)).To(HaveStatus(200))
		u := h.NewUser(auth.RoleUser)

		res := u.Client(h).Post(at("/study-plans/blocks/%d/start?mode=learning", IDOf(bs[0])), nil)
		Expect(res).To(HaveStatus(200))
		Expect(savedTest(int64(res.Map()["quiz_id"].(float64)))).To(Equal(bankQuiz{Owner: u.ID, Mode: "learning",
			Questions: []int64{open[1], open[0]}}))
		Expect(u.Client(h).Post(at("/study-plans/blocks/%d/start?mode=learning", IDOf(bs[1])), nil)).To(HaveError(409, "conflict"))
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.block_progress WHERE block_id = ?`, IDOf(bs[1])).Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())

		// A moderator reaches the whole bank.
		res = mod.Client(h).Post(at("/study-plans/blocks/%d/start?mode=learning", IDOf(bs[1])), nil)
		Expect(res).To(HaveStatus(200))
		Expect(savedTest(int64(res.Map()["quiz_id"].(float64))).Questions).To(Equal(closed))
	})

	It("keeps reading progress per block-article link on mixed plans", func() {
		withPorts(nil, library{5: {"intro"}}, nil)
		plan := IDOf(newPlan("mixed"))
		ids := questions(1)
		Expect(mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Read", "question_ids": ids,
			"reading": []q{{"article_id": 6}}})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Read", "question_ids": ids,
			"reading": []q{{"article_id": 5, "section_id": "outro"}}})).To(HaveError(422, "invalid_request"))
		res := mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": "Read", "question_ids": ids,
			"reading": []q{{"article_id": 5, "section_id": "intro"}, {"article_id": 5}}})
		Expect(res).To(HaveStatus(201))
		reading := blocksOf(res.Map())[0]["reading"].([]any)
		Expect(reading).To(HaveLen(2))
		link := IDOf(reading[0].(map[string]any))
		Expect(publish(plan, true)).To(HaveStatus(200))

		u := h.NewUser(auth.RoleUser)
		Expect(u.Client(h).Post(at("/study-plans/reading/%d/read?read=true", link), nil)).To(HaveStatus(204))
		d := u.Client(h).Get(at("/study-plans/%d", plan)).Map()
		Expect(d).To(And(HaveKeyWithValue("reading_total", BeNumerically("==", 2)), HaveKeyWithValue("reading_done", BeNumerically("==", 1))))
		Expect(u.Client(h).Post(at("/study-plans/reading/%d/read?read=true", link), nil)).To(HaveStatus(204))
		Expect(u.Client(h).Post(at("/study-plans/reading/%d/read?read=false", link), nil)).To(HaveStatus(204))
		Expect(u.Client(h).Get(at("/study-plans/%d", plan)).Map()["reading_done"]).To(BeNumerically("==", 0))
		Expect(u.Client(h).Post(at("/study-plans/reading/999999999/read?read=true"), nil)).To(HaveError(404, "not_found"))
	})
})

// runOutOfTime moves a timed attempt's start and deadline an hour back.
func runOutOfTime(attemptID int64) {
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Exec(`UPDATE attempts.attempts SET started_at = started_at - interval '1 hour',
		deadline_at = deadline_at - interval '1 hour' WHERE id = ?`, attemptID).Error).To(Succeed())
}

// bankQuiz is a saved test as the bank stores it.
type bankQuiz struct {
	Owner            int64
	Mode             string
	TimeLimitMinutes *int
	IsPublished      bool
	Questions        []int64 `gorm:"-"`
}

// savedTest reads a saved test from the bank's tables: its owner, mode,
// limit and questions in order.
func savedTest(quiz int64) bankQuiz {
	var z bankQuiz
	conn := h.App.DB.Conn(ctxb)
	ExpectWithOffset(1, conn.Raw(`SELECT s.user_id AS owner, z.mode, z.time_limit_minutes, z.is_published
		FROM bank.quizzes z JOIN bank.saved_tests s ON s.quiz_id = z.id AND s.user_id = z.user_id WHERE z.id = ?`, quiz).
		Scan(&z).Error).To(Succeed())
	ExpectWithOffset(1, conn.Raw(`SELECT question_id FROM bank.quiz_questions WHERE quiz_id = ? ORDER BY position`, quiz).
		Scan(&z.Questions).Error).To(Succeed())
	return z
}
