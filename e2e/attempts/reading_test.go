package attempts_test

import (
	"bytes"
	"fmt"
	"mime/multipart"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
)

// historyRow is one quiz of GET /attempts/history.
type historyRow struct {
	QuizID            int64     `json:"quiz_id"`
	QuizTitle         string    `json:"quiz_title"`
	Attempts          int       `json:"attempts"`
	Completed         int       `json:"completed"`
	BestPercentage    *float64  `json:"best_percentage"`
	AveragePercentage *float64  `json:"average_percentage"`
	Recent            []attempt `json:"recent_attempts"`
}

// dashboard is GET /attempts/stats/dashboard.
type dashboard struct {
	Quizzes           int      `json:"quizzes"`
	Attempts          int      `json:"attempts"`
	CompletedAttempts int      `json:"completed_attempts"`
	InProgress        int      `json:"in_progress"`
	AverageScore      *float64 `json:"average_score"`
	BestScore         *float64 `json:"best_score"`
	QuestionsAnswered int      `json:"questions_answered"`
	CorrectAnswers    int      `json:"correct_answers"`
	Documents         *int     `json:"documents"`
	Streak            struct {
		CurrentDays int     `json:"current_days"`
		LongestDays int     `json:"longest_days"`
		LastActive  *string `json:"last_active"`
	} `json:"streak"`
	Categories []struct {
		CategoryID   *int64  `json:"category_id"`
		CategoryName *string `json:"category_name"`
		Answered     int     `json:"answered"`
		Correct      int     `json:"correct"`
		Percentage   float64 `json:"percentage"`
	} `json:"categories"`
	RecentAttempts []attempt `json:"recent_attempts"`
	RemindersDue   int       `json:"reminders_due"`
}

func getDashboard(u *User) dashboard {
	res := u.Client(h).Get("/api/v1/attempts/stats/dashboard")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var d dashboard
	res.JSON(&d)
	return d
}

func category(name string) int64 {
	res := mod.Client(h).Post("/api/v1/question-categories/", map[string]any{"name": name})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

var _ = Describe("Reading attempts", func() {
	It("lists the caller's attempts, newest first, optionally by quiz", func() {
		q1, ids1 := cardioQuiz(quizOpts{})
		q2, _ := cardioQuiz(quizOpts{})
		u := learner()
		a1 := start(u, q1, "")
		submit(u, a1.ID, map[int64]string{ids1[0]: "Nitrate"})
		a2 := start(u, q2, "")
		a3 := start(u, q1, "")

		var all []attempt
		u.Client(h).Get("/api/v1/attempts/").JSON(&all)
		Expect(all).To(HaveLen(3))
		Expect([]int64{all[0].ID, all[1].ID, all[2].ID}).To(Equal([]int64{a3.ID, a2.ID, a1.ID}))
		Expect(all[2].Score).NotTo(BeNil())
		Expect(all[0].Score).To(BeNil())

		var ofQ1 []attempt
		u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/?quiz_id=%d", q1)).JSON(&ofQ1)
		Expect(ofQ1).To(HaveLen(2))
		var page []attempt
		u.Client(h).Get("/api/v1/attempts/?limit=1&offset=1").JSON(&page)
		Expect(page).To(HaveLen(1))
		Expect(page[0].ID).To(Equal(a2.ID))

		var none []attempt
		learner().Client(h).Get("/api/v1/attempts/").JSON(&none)
		Expect(none).To(BeEmpty(), "another learner sees none of them")
	})

	It("gives a per-quiz history with the latest attempts", func() {
		q1, ids := cardioQuiz(quizOpts{})
		u := learner()
		submit(u, start(u, q1, "").ID, map[int64]string{ids[0]: "Nitrate"})
		submit(u, start(u, q1, "").ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "MS", ids[2]: "II"})
		q2, _ := cardioQuiz(quizOpts{})
		start(u, q2, "")

		var hist []historyRow
		res := u.Client(h).Get("/api/v1/attempts/history")
		Expect(res).To(HaveStatus(200))
		res.JSON(&hist)
		Expect(hist).To(HaveLen(2))
		Expect(hist[0].QuizID).To(Equal(q2), "the most recently sat quiz first")
		Expect(hist[0].Completed).To(Equal(0))
		Expect(hist[0].BestPercentage).To(BeNil())
		Expect(hist[1].QuizID).To(Equal(q1))
		Expect(hist[1].Attempts).To(Equal(2))
		Expect(hist[1].Completed).To(Equal(2))
		Expect(*hist[1].BestPercentage).To(Equal(100.0))
		Expect(*hist[1].AveragePercentage).To(BeNumerically("~", 66.665, 0.01))
		Expect(hist[1].Recent).To(HaveLen(2))
		Expect(*hist[1].Recent[0].Score).To(Equal(3), "newest first")
	})

	It("answers in-progress for one attempt with the attempt or null", func() {
		quiz, _ := cardioQuiz(quizOpts{})
		other, _ := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		path := func(quizID int64) string {
			return fmt.Sprintf("/api/v1/attempts/%d/in-progress?quiz_id=%d", a.ID, quizID)
		}
		res := u.Client(h).Get(path(quiz))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["id"]).To(BeNumerically("==", a.ID))
		Expect(bodyText(u.Client(h).Get(path(other)))).To(Equal("null"))
		submit(u, a.ID, nil)
		Expect(bodyText(u.Client(h).Get(path(quiz)))).To(Equal("null"))
		Expect(learner().Client(h).Get(path(quiz))).To(HaveError(404, "not_found"))
		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d/in-progress", a.ID))).To(HaveError(422, "invalid_request"))
	})

	It("lists incomplete attempts with what their saved progress says", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress",
			save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "MS"}, map[string]any{"current_idx": 2}))).
			To(HaveStatus(200))
		res := u.Client(h).Get("/api/v1/attempts/in-progress")
		Expect(res).To(HaveStatus(200))
		list := res.List()
		Expect(list).To(HaveLen(1))
		row := list[0].(map[string]any)
		Expect(row["id"]).To(BeNumerically("==", a.ID))
		Expect(row["answered"]).To(BeNumerically("==", 2))
		Expect(row["current_idx"]).To(BeNumerically("==", 2))
		Expect(row["saved_at"]).NotTo(BeNil())

		fresh := start(u, quiz, "&fresh=true")
		list = u.Client(h).Get("/api/v1/attempts/in-progress").List()
		Expect(list).To(HaveLen(2))
		newest := list[0].(map[string]any)
		Expect(newest["id"]).To(BeNumerically("==", fresh.ID))
		Expect(newest["answered"]).To(BeNil(), "nothing saved yet")
		Expect(newest["current_idx"]).To(BeNil())
	})

	It("deletes an attempt with its answers, progress and reminder entries, owner only", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		submit(u, a.ID, map[int64]string{ids[0]: "Nitrate"})
		Expect(reminderIDs(u)).To(ConsistOf(ids[1], ids[2]))
		b := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, b.ID, nil, nil))).To(HaveStatus(200))

		other := learner()
		Expect(other.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", a.ID))).To(HaveError(404, "not_found"))
		Expect(other.Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d", a.ID))).To(HaveError(404, "not_found"))

		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", a.ID))).To(HaveStatus(204))
		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d", a.ID))).To(HaveError(404, "not_found"))
		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", a.ID))).To(HaveError(404, "not_found"))
		Expect(reminderIDs(u)).To(BeEmpty())
		var answers int
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM attempts.answers WHERE attempt_id = ?`, a.ID).
			Scan(&answers).Error).To(Succeed())
		Expect(answers).To(BeZero())

		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", b.ID))).To(HaveStatus(204))
		Expect(bodyText(u.Client(h).Get(progressPath(quiz)))).To(Equal("null"))
	})

	It("shows another learner none of it in any listing", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u, other := learner(), learner()
		submit(u, start(u, quiz, "").ID, map[int64]string{ids[0]: "Nitrate"})
		open := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress", save(quiz, open.ID, map[int64]string{ids[0]: "x"}, nil))).
			To(HaveStatus(200))
		Expect(u.Client(h).Get("/api/v1/attempts/in-progress").List()).To(HaveLen(1))
		Expect(reminderIDs(u)).To(HaveLen(2))

		c := other.Client(h)
		Expect(c.Get("/api/v1/attempts/in-progress").List()).To(BeEmpty())
		Expect(c.Get("/api/v1/attempts/history").List()).To(BeEmpty())
		Expect(c.Get(fmt.Sprintf("/api/v1/attempts/?quiz_id=%d", quiz)).List()).To(BeEmpty())
		Expect(reminderIDs(other)).To(BeEmpty())
		d := getDashboard(other)
		Expect(d.Attempts).To(BeZero())
		Expect(d.RecentAttempts).To(BeEmpty())
		Expect(d.Categories).To(BeEmpty())
		Expect(d.Streak.LastActive).To(BeNil())
	})

	It("validates ids and paging", func() {
		c := learner().Client(h)
		Expect(c.Get("/api/v1/attempts/abc")).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/attempts/?limit=500")).To(HaveError(422, "invalid_request"))
		Expect(h.Anon().Get("/api/v1/attempts/")).To(HaveError(401, "unauthenticated"))
	})
})

var _ = Describe("The dashboard", func() {
	It("counts, scores, streaks and per-category performance for a learner", func() {
		cardio, renal := category("Dash cardiology"), category("Dash renal")
		c1 := createQuestion(q{"question_text": "C1?", "question_type": "mcq", "options": []string{"A", "B"},
			"correct_answer": "A", "question_category_id": cardio})
		c2 := createQuestion(q{"question_text": "C2?", "question_type": "mcq", "options": []string{"A", "B"},
			"correct_answer": "A", "question_category_id": cardio})
		r1 := createQuestion(q{"question_text": "R1?", "question_type": "fill_in", "correct_answer": "urea",
			"question_category_id": renal})
		loose := createQuestion(mcq("Unfiled?", "Yes", "Yes", "No"))
		quiz := createQuiz("Dashboard quiz", quizOpts{}, c1, c2, r1, loose)

		u := learner()
		empty := getDashboard(u)
		Expect(empty.Attempts).To(BeZero())
		Expect(empty.AverageScore).To(BeNil())
		Expect(empty.Categories).To(BeEmpty())
		Expect(empty.Quizzes).To(BeNumerically(">=", 1))
		Expect(empty.Documents).To(BeNil(), "documents are for moderators")

		submit(u, start(u, quiz, "").ID, map[int64]string{c1: "A", c2: "A", r1: "Urea", loose: "No"}) // 3/4
		submit(u, start(u, quiz, "").ID, map[int64]string{c1: "A"})                                   // 1/4
		start(u, quiz, "")

		d := getDashboard(u)
		Expect(d.Attempts).To(Equal(3))
		Expect(d.CompletedAttempts).To(Equal(2))
		Expect(d.InProgress).To(Equal(1))
		Expect(*d.AverageScore).To(Equal(50.0))
		Expect(*d.BestScore).To(Equal(75.0))
		Expect(d.QuestionsAnswered).To(Equal(8))
		Expect(d.CorrectAnswers).To(Equal(4))
		Expect(d.Streak.CurrentDays).To(Equal(1))
		Expect(d.Streak.LongestDays).To(Equal(1))
		Expect(d.RecentAttempts).To(HaveLen(3))
		Expect(d.RemindersDue).To(BeZero(), "misses come due tomorrow")

		Expect(d.Categories).To(HaveLen(3))
		byName := map[string]int{}
		for i, c := range d.Categories {
			name := "(none)"
			if c.CategoryName != nil {
				name = *c.CategoryName
			}
			byName[name] = i
		}
		cat := d.Categories[byName["Dash cardiology"]]
		Expect(cat.Answered).To(Equal(4))
		Expect(cat.Correct).To(Equal(3))
		Expect(cat.Percentage).To(Equal(75.0))
		Expect(*cat.CategoryID).To(Equal(cardio))
		Expect(d.Categories[byName["Dash renal"]].Percentage).To(Equal(50.0))
		Expect(d.Categories[byName["(none)"]].Percentage).To(Equal(0.0))
		Expect(d.Categories[0].Percentage).To(Equal(0.0), "weakest first")

		// An attempt completed yesterday makes the streak two days long.
		exec(`UPDATE attempts.attempts SET completed_at = completed_at - interval '1 day' WHERE id = (
			SELECT min(id) FROM attempts.attempts WHERE user_id = ? AND completed_at IS NOT NULL)`, u.ID)
		retallyDays(u.ID)
		d = getDashboard(u)
		Expect(d.Streak.CurrentDays).To(Equal(2))
		Expect(d.Streak.LongestDays).To(Equal(2))
	})

	It("shows moderators the document count", func() {
		m := mod.Client(h)
		var before dashboard
		res := m.Get("/api/v1/attempts/stats/dashboard")
		Expect(res).To(HaveStatus(200))
		res.JSON(&before)
		Expect(before.Documents).NotTo(BeNil())

		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		fw, err := w.CreateFormFile("file", "paper.pdf")
		Expect(err).NotTo(HaveOccurred())
		_, err = fw.Write(pdffixtures.QuestionPaper())
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Close()).To(Succeed())
		Expect(m.With("Content-Type", w.FormDataContentType()).Post("/api/v1/documents/upload", buf.Bytes())).
			To(HaveStatus(201))

		after := getDashboard(mod)
		Expect(*after.Documents).To(Equal(*before.Documents + 1))
	})
})
