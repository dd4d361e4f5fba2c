package attempts_test

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/pressly/goose/v3"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/migrations"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

// tallies is a learner's running tallies as stored, or as computed from
// scratch over their completed attempts (the full aggregates the
// dashboard and the charts ran before the tallies).
type tallies struct {
	Questions []string
	Days      []string
	Summary   string
}

// questionsFromScratch, daysFromScratch and summaryFromScratch are the
// reads before the tallies; stored* read the tallies themselves.
const (
	questionsFromScratch = `SELECT a.question_id || ':' || count(*) || ':' || count(*) FILTER (WHERE a.is_correct)
		FROM attempts.attempts t JOIN attempts.answers a ON a.attempt_id = t.id
		WHERE t.user_id = ? AND t.completed_at IS NOT NULL GROUP BY a.question_id ORDER BY a.question_id`
	storedQuestions = `SELECT question_id || ':' || seen || ':' || correct FROM attempts.question_tallies
		WHERE user_id = ? ORDER BY question_id`
	daysFromScratch = `SELECT (completed_at AT TIME ZONE 'UTC')::date || ':' || count(*) || ':' || sum(total_questions)
		  || ':' || sum(score) || ':' || sum(percentage::numeric)
		FROM attempts.attempts WHERE user_id = ? AND completed_at IS NOT NULL
		GROUP BY (completed_at AT TIME ZONE 'UTC')::date ORDER BY (completed_at AT TIME ZONE 'UTC')::date`
	storedDays = `SELECT day || ':' || completed || ':' || answered || ':' || correct || ':' || percentage_sum
		FROM attempts.day_tallies WHERE user_id = ? ORDER BY day`
	summaryFromScratch = `SELECT count(*) || ':' || count(*) FILTER (WHERE completed_at IS NOT NULL)
		  || ':' || count(*) FILTER (WHERE completed_at IS NULL) || ':' || coalesce(round(avg(percentage)::numeric, 2)::text, '-')
		  || ':' || coalesce(round(max(percentage)::numeric, 2)::text, '-')
		  || ':' || coalesce(sum(total_questions) FILTER (WHERE completed_at IS NOT NULL), 0) || ':' || coalesce(sum(score), 0)
		FROM attempts.attempts WHERE user_id = ?`
)

func talliesOf(conn *db.DB, userID int64, questions, days string) tallies {
	var t tallies
	ExpectWithOffset(2, conn.Conn(ctxb).Raw(questions, userID).Scan(&t.Questions).Error).To(Succeed())
	ExpectWithOffset(2, conn.Conn(ctxb).Raw(days, userID).Scan(&t.Days).Error).To(Succeed())
	return t
}

// expectTallied checks a learner's stored tallies and dashboard counts
// against the from-scratch aggregates of their attempts.
func expectTallied(u *User) {
	want := talliesOf(h.App.DB, u.ID, questionsFromScratch, daysFromScratch)
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(summaryFromScratch, u.ID).Scan(&want.Summary).Error).To(Succeed())
	got := talliesOf(h.App.DB, u.ID, storedQuestions, storedDays)
	d := getDashboard(u)
	round := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.2f", *p)
	}
	got.Summary = fmt.Sprintf("%d:%d:%d:%s:%s:%d:%d", d.Attempts, d.CompletedAttempts, d.InProgress,
		round(d.AverageScore), round(d.BestScore), d.QuestionsAnswered, d.CorrectAnswers)
	ExpectWithOffset(1, got).To(Equal(want))
}

// retallyDays rebuilds a learner's day tallies from their attempts, after
// a test moved a completion into the past in SQL (past the submit that
// keeps the tallies).
func retallyDays(userID int64) {
	exec(`DELETE FROM attempts.day_tallies WHERE user_id = ?`, userID)
	exec(`INSERT INTO attempts.day_tallies (user_id, day, completed, answered, correct, percentage_sum)
		SELECT user_id, (completed_at AT TIME ZONE 'UTC')::date, count(*), sum(total_questions), sum(score),
		  sum(percentage::numeric)
		FROM attempts.attempts WHERE user_id = ? AND completed_at IS NOT NULL GROUP BY 1, 2`, userID)
}

var _ = Describe("A learner's running tallies", func() {
	It("equal the full aggregates of their attempts after submits, a deleted attempt and an open one", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		other := createQuiz("Shares two questions", quizOpts{}, ids[2], ids[0])
		u, bystander := learner(), learner()
		expectTallied(u)

		submit(u, start(u, quiz, "").ID, map[int64]string{ids[0]: "Nitrate", ids[1]: "ms", ids[2]: "I"})
		first := start(u, other, "")
		submit(u, first.ID, map[int64]string{ids[2]: "II"})
		submit(u, start(u, quiz, "").ID, nil) // all blank: sat and wrong
		submit(bystander, start(bystander, quiz, "").ID, map[int64]string{ids[0]: "Nitrate"})
		start(u, other, "") // in progress: counted as such, not tallied
		expectTallied(u)
		Expect(talliesOf(h.App.DB, u.ID, storedQuestions, storedDays).Questions).To(HaveLen(3))

		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", first.ID))).To(HaveStatus(204))
		expectTallied(u)
		expectTallied(bystander)
		Expect(bystander.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", first.ID))).To(HaveStatus(404))
		expectTallied(u)
	})

	It("lose a question and a day when the last attempt that held them goes", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := submit(u, start(u, quiz, "").ID, map[int64]string{ids[0]: "Nitrate"})
		Expect(u.Client(h).Delete(fmt.Sprintf("/api/v1/attempts/%d", a.ID))).To(HaveStatus(204))
		Expect(talliesOf(h.App.DB, u.ID, storedQuestions, storedDays)).To(Equal(tallies{}))
		expectTallied(u)
	})

	It("add up two submits of one learner at once", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		other := createQuiz("Same questions, other order", quizOpts{}, ids[2], ids[1], ids[0])
		u := learner()
		for range 3 {
			a, b := start(u, quiz, ""), start(u, other, "")
			var wg sync.WaitGroup
			for _, id := range []int64{a.ID, b.ID} {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					submit(u, id, map[int64]string{ids[0]: "Nitrate", ids[2]: "II"})
				}()
			}
			wg.Wait()
		}
		expectTallied(u)
		Expect(talliesOf(h.App.DB, u.ID, storedQuestions, storedDays).Questions).
			To(ConsistOf(fmt.Sprintf("%d:6:6", ids[0]), fmt.Sprintf("%d:6:0", ids[1]), fmt.Sprintf("%d:6:6", ids[2])))
	})

	It("go with the account, and no one else's", func() {
		quiz, _ := cardioQuiz(quizOpts{})
		gone, kept := learner(), learner()
		for _, u := range []*User{gone, kept} {
			submit(u, start(u, quiz, "").ID, nil)
		}
		keptBefore := talliesOf(h.App.DB, kept.ID, storedQuestions, storedDays)
		Expect(keptBefore.Questions).To(HaveLen(3))
		admin := h.NewUser(auth.RoleAdmin)
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/users/%d", gone.ID))).To(HaveStatus(204))
		Eventually(func() tallies { return talliesOf(h.App.DB, gone.ID, storedQuestions, storedDays) }).
			WithTimeout(15 * time.Second).Should(Equal(tallies{}))
		Expect(talliesOf(h.App.DB, kept.ID, storedQuestions, storedDays)).To(Equal(keptBefore))
		expectTallied(kept)
	})

	It("are filled at migration from the attempts already there", func() {
		ctx := context.Background()
		url, err := CloneDatabase(ctx)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = DropDatabase(context.Background(), url) })
		conn, err := db.Open(ctx, config.Database{URL: url, MaxOpenConns: 2, MaxIdleConns: 1}, slog.New(slog.DiscardHandler))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(conn.Close)
		sub, err := fs.Sub(migrations.FS, "attempts")
		Expect(err).NotTo(HaveOccurred())
		p, err := goose.NewProvider(goose.DialectPostgres, conn.StdPool(), sub,
			goose.WithTableName("attempts.goose_db_version"), goose.WithDisableGlobalRegistry(true))
		Expect(err).NotTo(HaveOccurred())
		_, err = p.DownTo(ctx, 5)
		Expect(err).NotTo(HaveOccurred())

		// Two learners' attempts as they were before the tallies: completed
		// over three days, right and wrong and blank, and one open.
		Expect(conn.Conn(ctx).Exec(`INSERT INTO attempts.sat_questions (snapshot_key, question_id, version, question_type,
			  question_text, correct_answer) SELECT 'k' || g, g, 1, 'mcq', 'Q' || g, 'A' FROM generate_series(1, 4) g`).Error).
			To(Succeed())
		Expect(conn.Conn(ctx).Exec(`INSERT INTO attempts.attempts (user_id, quiz_id, quiz_title, mode, total_questions,
			  score, percentage, started_at, completed_at)
			SELECT 7 + g % 2, 1, 'Q', 'timed', 4, s, s * 25.0, now() - make_interval(days => g % 3),
			  CASE WHEN s IS NOT NULL THEN now() - make_interval(days => g % 3, mins => 1) END
			FROM generate_series(1, 9) g, LATERAL (SELECT CASE WHEN g < 9 THEN g % 5 END AS s) r`).Error).To(Succeed())
		Expect(conn.Conn(ctx).Exec(`INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id,
			  user_answer, is_correct)
			SELECT a.id, q.question_id - 1, q.question_id, q.id, CASE WHEN q.question_id = 4 THEN NULL ELSE 'A' END,
			  CASE WHEN a.completed_at IS NULL THEN NULL ELSE q.question_id <= a.score END
			FROM attempts.attempts a, attempts.sat_questions q`).Error).To(Succeed())

		_, err = p.UpTo(ctx, 6)
		Expect(err).NotTo(HaveOccurred())
		for _, u := range []int64{7, 8} {
			want := talliesOf(conn, u, questionsFromScratch, daysFromScratch)
			Expect(want.Days).To(HaveLen(3))
			Expect(talliesOf(conn, u, storedQuestions, storedDays)).To(Equal(want))
		}
	})
})
