package analytics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/analytics"
	"github.com/roundsedu/rounds/platform/auth"
)

var options = []string{"Alpha", "Bravo", "Charlie", "Delta"}

func createQuestion(text string) int64 {
	res := mod.Client(h).Post("/api/v1/questions/create", map[string]any{"question_text": text,
		"question_type": "mcq", "options": options, "correct_answer": "Alpha", "explanation": "Alpha."})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

func createQuiz(ids []int64) int64 {
	res := mod.Client(h).Post("/api/v1/questions/from-bank", map[string]any{"title": "Analysed quiz", "question_ids": ids})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	id := int64(res.Map()["id"].(float64))
	ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", id), nil)).
		To(HaveStatus(200))
	return id
}

func startAttempt(u *User, quizID int64, query string) int64 {
	res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d%s", quizID, query), nil)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return int64(res.Map()["id"].(float64))
}

func submit(u *User, attemptID int64, answers map[int64]string) {
	m := map[string]string{}
	for k, v := range answers {
		m[strconv.FormatInt(k, 10)] = v
	}
	ExpectWithOffset(1, u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", attemptID),
		map[string]any{"answers": m})).To(HaveStatus(200))
}

// countedOf gives how many of these attempts analytics has counted: a spec
// waits for its own, since other specs' submissions count beside them.
func countedOf(ids ...int64) func() int64 {
	return func() int64 {
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM analytics.counted_attempts WHERE attempt_id IN ?`, ids).
			Scan(&n).Error).To(Succeed())
		return n
	}
}

// recomputed is one item's statistics worked out from the attempts tables
// with the textbook two-pass formulas.
type recomputed struct {
	responses, correct, blank int
	facility, r               float64 // r is NaN when undefined
}

func recompute(quizID, questionID int64) recomputed {
	var rows []struct {
		AttemptID int64
		Score     int
		Total     int
		Correct   bool
		Answer    *string
	}
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT a.id AS attempt_id, a.score, a.total_questions AS total,
		  coalesce(x.is_correct, false) AS correct, x.user_answer AS answer
		FROM attempts.attempts a JOIN attempts.answers x ON x.attempt_id = a.id
		WHERE a.quiz_id = ? AND a.mode = 'timed' AND a.completed_at IS NOT NULL AND x.question_id = ?`,
		quizID, questionID).Scan(&rows).Error).To(Succeed())
	out := recomputed{responses: len(rows)}
	xs, ys := make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		score := r.Score
		if r.Correct {
			out.correct++
			ys[i] = 1
			score--
		}
		if r.Answer == nil || *r.Answer == "" {
			out.blank++
		}
		xs[i] = float64(score) / float64(r.Total-1)
	}
	out.facility = float64(out.correct) / float64(out.responses)
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(ys))
	var cov, vx, vy float64
	for i := range xs {
		cov += (xs[i] - mx) * (ys[i] - my)
		vx += (xs[i] - mx) * (xs[i] - mx)
		vy += (ys[i] - my) * (ys[i] - my)
	}
	out.r = cov / math.Sqrt(vx*vy)
	return out
}

var _ = Describe("Item analysis", Ordered, func() {
	var (
		quiz     int64
		qs       []int64
		learners []*User
		attempts []int64
		chosen   []map[int64]string
	)

	BeforeAll(func() {
		for i := range 4 {
			qs = append(qs, createQuestion(fmt.Sprintf("Analysed question %d?", i)))
		}
		quiz = createQuiz(qs)
		// Learners of rising ability; the first question everyone gets
		// right, the last is a coin toss whatever the ability.
		rng := rand.New(rand.NewPCG(3, 5))
		for i := range 12 {
			u := h.NewUser(auth.RoleUser)
			ability := float64(i) / 11
			answers := map[int64]string{qs[0]: "Alpha"}
			for j, q := range qs[1:] {
				switch {
				case j == 2 && rng.IntN(2) == 0, j < 2 && rng.Float64() < ability:
					answers[q] = "Alpha"
				case rng.IntN(5) == 0:
					// left blank
				default:
					answers[q] = options[1+rng.IntN(3)]
				}
			}
			id := startAttempt(u, quiz, "")
			submit(u, id, answers)
			learners, attempts, chosen = append(learners, u), append(attempts, id), append(chosen, answers)
		}
		// A study attempt shows the answers as it goes: counted as seen,
		// never added to the statistics.
		study := h.NewUser(auth.RoleUser)
		studyID := startAttempt(study, quiz, "&mode=learning")
		submit(study, studyID, map[int64]string{qs[1]: "Delta"})
		Eventually(countedOf(append(slices.Clone(attempts), studyID)...), "10s", "50ms").Should(BeNumerically("==", 13))
	})

	It("equals a full recomputation from the attempts after every submission", func() {
		for _, q := range qs {
			want := recompute(quiz, q)
			res := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/%d/analysis", q))
			Expect(res).To(HaveStatus(200))
			versions := res.List()
			Expect(versions).To(HaveLen(1))
			item := versions[0].(map[string]any)
			Expect(item["responses"]).To(BeNumerically("==", want.responses), "question %d", q)
			Expect(want.responses).To(Equal(12), "the study attempt is not counted")
			Expect(item["facility"]).To(BeNumerically("~", want.facility, 0.0006))
			Expect(item["blank_rate"]).To(BeNumerically("~", float64(want.blank)/12, 0.0006))
			if math.IsNaN(want.r) {
				Expect(item["discrimination"]).To(BeNil(), "question %d: no spread", q)
			} else {
				Expect(item["discrimination"]).To(BeNumerically("~", want.r, 0.0006), "question %d", q)
			}
			var chosenTotal float64
			for _, o := range item["options"].([]any) {
				chosenTotal += o.(map[string]any)["chosen"].(float64)
			}
			Expect(chosenTotal).To(BeNumerically("==", want.responses-want.blank), "every answer given is one option's")
		}
		first := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/%d/analysis", qs[0])).List()[0].(map[string]any)
		Expect(first["facility"]).To(BeNumerically("==", 1))
		Expect(first["options"]).To(ContainElement(And(HaveKeyWithValue("option", "Bravo"),
			HaveKeyWithValue("chosen", BeNumerically("==", 0)))), "options nobody chose are listed too")
	})

	It("adds nothing when an attempt is counted again", func() {
		var before, after []map[string]any
		read := func(dst *[]map[string]any) {
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT question_id, responses, correct, sum_rest FROM analytics.item_stats
				ORDER BY question_id`).Scan(dst).Error).To(Succeed())
		}
		read(&before)
		m := app.Lookup[*analytics.Module](h.App)
		for _, id := range attempts[:3] {
			Expect(m.CountAttempt(ctxb, id)).To(Succeed())
		}
		read(&after)
		Expect(after).To(Equal(before))
	})

	It("is for the question's editors only", func() {
		Expect(learners[0].Client(h).Get(fmt.Sprintf("/api/v1/questions/%d/analysis", qs[0]))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get("/api/v1/questions/999999999/analysis")).To(HaveError(404, "not_found"))
		Expect(h.Anon().Get(fmt.Sprintf("/api/v1/questions/%d/analysis", qs[0]))).To(HaveError(401, "unauthenticated"))
	})

	It("flags items across the bank once they have enough responses", func() {
		res := mod.Client(h).Get("/api/v1/questions/analysis?flag=too_easy")
		Expect(res).To(HaveStatus(200))
		var flagged []int64
		for _, it := range res.List() {
			flagged = append(flagged, int64(it.(map[string]any)["question_id"].(float64)))
		}
		Expect(flagged).To(ContainElement(qs[0]), "everyone got it right")
		Expect(flagged).NotTo(ContainElement(qs[3]))
		Expect(res.Header.Get("X-Total-Count")).NotTo(BeEmpty())
		Expect(mod.Client(h).Get("/api/v1/questions/analysis?flag=boring")).To(HaveError(422, "invalid_request"))
		Expect(learners[0].Client(h).Get("/api/v1/questions/analysis?flag=too_easy")).To(HaveError(403, "forbidden"))
	})

	It("shows a learner how everyone answered, and their percentile, on their own submitted attempt only", func() {
		u, id := learners[5], attempts[5]
		res := u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d/peers", id))
		Expect(res).To(HaveStatus(200))
		p := res.Map()
		Expect(p["sittings"]).To(BeNumerically("==", 12))
		var mine float64
		var percents []float64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT round(percentage) FROM attempts.attempts WHERE quiz_id = ? AND mode = 'timed'`,
			quiz).Scan(&percents).Error).To(Succeed())
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT round(percentage) FROM attempts.attempts WHERE id = ?`, id).
			Scan(&mine).Error).To(Succeed())
		var below, level float64
		for _, x := range percents {
			if x < mine {
				below++
			} else if x == mine {
				level++
			}
		}
		Expect(p["percentile"]).To(BeNumerically("~", math.Round(1000*(below+level/2)/12)/10, 0.01))
		questions := p["questions"].([]any)
		Expect(questions).To(HaveLen(4))
		for _, raw := range questions {
			q := raw.(map[string]any)
			qid := int64(q["question_id"].(float64))
			Expect(q["your_answer"]).To(Equal(chosen[5][qid]))
			for _, o := range q["options"].([]any) {
				Expect(o).NotTo(HaveKey("discrimination"), "discrimination is for editors")
			}
		}
		Expect(learners[6].Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d/peers", id))).To(HaveError(404, "not_found"))
		open := startAttempt(u, quiz, "")
		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d/peers", open))).To(HaveError(404, "not_found"),
			"not before it is submitted")
	})
})
