package attempts_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// charts is GET /attempts/stats/charts.
type charts struct {
	Since  string `json:"since"`
	Scores []struct {
		AttemptID   int64   `json:"attempt_id"`
		QuizID      int64   `json:"quiz_id"`
		QuizTitle   string  `json:"quiz_title"`
		Mode        string  `json:"mode"`
		CompletedAt string  `json:"completed_at"`
		Percentage  float64 `json:"percentage"`
	} `json:"scores"`
	Days []struct {
		Day      string `json:"day"`
		Answered int    `json:"answered"`
		Correct  int    `json:"correct"`
	} `json:"days"`
	Pace []struct {
		AttemptID                int64    `json:"attempt_id"`
		QuizID                   int64    `json:"quiz_id"`
		SecondsPerQuestion       float64  `json:"seconds_per_question"`
		CohortSecondsPerQuestion *float64 `json:"cohort_seconds_per_question"`
		CohortAttempts           int      `json:"cohort_attempts"`
	} `json:"pace"`
}

func getCharts(u *User, query string) charts {
	res := u.Client(h).Get("/api/v1/attempts/stats/charts" + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var c charts
	res.JSON(&c)
	return c
}

// sitFor completes an attempt of quiz by u with answers, then moves it so
// it started days ago and took seconds.
func sitFor(u *User, quiz int64, mode string, answers map[int64]string, daysAgo, seconds int) int64 {
	a := start(u, quiz, "&mode="+mode)
	submit(u, a.ID, answers)
	exec(`UPDATE attempts.attempts SET started_at = now() - make_interval(days => ?),
		completed_at = now() - make_interval(days => ?) + make_interval(secs => ?) WHERE id = ?`,
		daysAgo, daysAgo, seconds, a.ID)
	retallyDays(u.ID)
	return a.ID
}

var _ = Describe("The dashboard's charts", func() {
	It("gives scores over time, answers per day and time per question against the cohort", func() {
		q1 := createQuestion(mcq("Charts one?", "A", "A", "B"))
		q2 := createQuestion(mcq("Charts two?", "A", "A", "B"))
		quiz := createQuiz("Charts quiz", quizOpts{}, q1, q2)
		u := learner()
		old := sitFor(u, quiz, "timed", map[int64]string{q1: "A", q2: "A"}, 3, 60)
		study := sitFor(u, quiz, "learning", map[int64]string{q1: "B"}, 0, 30)
		start(u, quiz, "&mode=timed") // in progress: in no chart

		// Two others sat it timed: too few to show their median.
		sitFor(learner(), quiz, "timed", map[int64]string{q1: "A"}, 1, 20)
		sitFor(learner(), quiz, "timed", map[int64]string{q1: "A"}, 1, 100)
		c := getCharts(u, "")
		Expect(c.Since).To(Equal(time.Now().UTC().AddDate(0, 0, -364).Format(time.DateOnly)))
		Expect(c.Scores).To(HaveLen(2))
		Expect([]int64{c.Scores[0].AttemptID, c.Scores[1].AttemptID}).To(Equal([]int64{old, study}))
		Expect(c.Scores[0].Mode).To(Equal("timed"))
		Expect(c.Scores[0].Percentage).To(Equal(100.0))
		Expect(c.Scores[0].QuizTitle).To(Equal("Charts quiz"))
		Expect(c.Scores[1].Mode).To(Equal("learning"))
		Expect(c.Scores[1].Percentage).To(Equal(0.0))
		Expect(c.Days).To(HaveLen(2))
		Expect(c.Days[0].Day).To(Equal(time.Now().UTC().AddDate(0, 0, -3).Format(time.DateOnly)))
		Expect([]int{c.Days[0].Answered, c.Days[0].Correct}).To(Equal([]int{2, 2}))
		// The study attempt: one answered wrongly, one left blank (sat, and wrong).
		Expect(c.Days[1].Day).To(Equal(time.Now().UTC().Format(time.DateOnly)))
		Expect([]int{c.Days[1].Answered, c.Days[1].Correct}).To(Equal([]int{2, 0}))
		Expect(c.Pace).To(HaveLen(1))
		Expect(c.Pace[0].AttemptID).To(Equal(old))
		Expect(c.Pace[0].SecondsPerQuestion).To(Equal(30.0))
		Expect(c.Pace[0].CohortAttempts).To(Equal(2))
		Expect(c.Pace[0].CohortSecondsPerQuestion).To(BeNil())

		// A third: the median of 10, 20 and 50 seconds per question.
		sitFor(learner(), quiz, "timed", map[int64]string{q1: "A"}, 1, 40)
		c = getCharts(u, "")
		Expect(c.Pace[0].CohortAttempts).To(Equal(3))
		Expect(c.Pace[0].CohortSecondsPerQuestion).To(HaveValue(Equal(20.0)))

		// Two days back leaves the older attempt out.
		c = getCharts(u, "?days=2")
		Expect(c.Since).To(Equal(time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)))
		Expect(c.Scores).To(HaveLen(1))
		Expect(c.Scores[0].AttemptID).To(Equal(study))
		Expect(c.Days).To(HaveLen(1))
		Expect(c.Pace).To(BeEmpty())
	})

	It("shows a learner only their own attempts", func() {
		q1 := createQuestion(mcq("Charts own?", "A", "A", "B"))
		quiz := createQuiz("Charts own quiz", quizOpts{}, q1)
		sitFor(learner(), quiz, "timed", map[int64]string{q1: "A"}, 0, 10)
		c := getCharts(learner(), "")
		Expect(c.Scores).To(BeEmpty())
		Expect(c.Days).To(BeEmpty())
		Expect(c.Pace).To(BeEmpty())
	})

	It("refuses a window outside 1 to 730 days and a caller without a token", func() {
		u := learner()
		for _, d := range []string{"0", "731", "x"} {
			res := u.Client(h).Get("/api/v1/attempts/stats/charts?days=" + d)
			Expect(res).To(HaveStatus(422), fmt.Sprintf("days=%s", d))
		}
		Expect(h.Anon().Get("/api/v1/attempts/stats/charts")).To(HaveStatus(401))
	})
})
