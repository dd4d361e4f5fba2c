package attempts_test

// BenchmarkCharts measures GET /attempts/stats/charts through the whole app
// on loopback (HTTP, auth, the three aggregate queries) for a learner with
// 1,000 completed attempts. It is not run by `go test` without -bench:
//
//	go test ./e2e/attempts/ -run '^$' -bench Charts -benchtime 300x
//
// Data: the learner's 1,000 attempts of 20 questions over 50 quizzes, spread
// over the last two years, two in three timed; 200 other learners with 5
// timed attempts each of the same quizzes (the cohort), and 50,000 attempts
// of other quizzes by others, so the table is not the learner's alone.

import (
	"fmt"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
)

func BenchmarkCharts(b *testing.B) {
	h, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = h.Stop() }()
	learner := h.NewUser(auth.RoleUser)
	conn := h.App.DB.Conn(b.Context())
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO attempts.sat_questions (snapshot_key, question_id, version, question_type, question_text, correct_answer)
			SELECT 'bench-' || g, g, 1, 'mcq', 'Question ' || g, 'A' FROM generate_series(1, 1000) g`, nil},
		{`INSERT INTO attempts.attempts (user_id, quiz_id, quiz_title, mode, total_questions, score, percentage, started_at, completed_at)
			SELECT ?, 1 + g % 50, 'Quiz ' || (1 + g % 50), CASE WHEN g % 3 = 0 THEN 'learning' ELSE 'timed' END, 20, s, s * 5,
			  t, t + make_interval(secs => 300 + g % 900)
			FROM generate_series(1, 1000) g,
			  LATERAL (SELECT now() - make_interval(mins => g * 1051) AS t, (random() * 20)::int AS s WHERE g > 0) r`, []any{learner.ID}},
		{`INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id, user_answer, is_correct)
			SELECT a.id, p, q.question_id, q.id, CASE WHEN p % 7 = 0 THEN NULL ELSE 'A' END, p < a.score
			FROM attempts.attempts a, generate_series(0, 19) p
			JOIN attempts.sat_questions q ON q.snapshot_key = 'bench-' || (1 + p * 50)
			WHERE a.user_id = ?`, []any{learner.ID}},
		{`INSERT INTO attempts.attempts (user_id, quiz_id, quiz_title, mode, total_questions, score, percentage, started_at, completed_at)
			SELECT ? + 1 + g % 200, 1 + g % 50, 'Quiz', 'timed', 20, 10, 50, now() - interval '1 day', now() - interval '1 day' + make_interval(secs => 200 + g % 1000)
			FROM generate_series(1, 1000) g`, []any{learner.ID}},
		{`INSERT INTO attempts.attempts (user_id, quiz_id, quiz_title, mode, total_questions, score, percentage, started_at, completed_at)
			SELECT ? + 1 + g % 5000, 51 + g % 500, 'Other', 'timed', 20, 10, 50, now() - interval '2 days', now() - interval '2 days' + make_interval(secs => 600)
			FROM generate_series(1, 50000) g`, []any{learner.ID}},
		{retally, nil},
		{`VACUUM ANALYZE attempts.attempts`, nil},
		{`ANALYZE attempts.answers; ANALYZE attempts.sat_questions; ANALYZE attempts.question_tallies; ANALYZE attempts.day_tallies`, nil},
	} {
		if err := conn.Exec(q.sql, q.args...).Error; err != nil {
			b.Fatal(err)
		}
	}

	api := loadkit.NewAPI(h.BaseURL, 2, 10*time.Second)
	charts := func(int) error { return api.Get(learner.Token, "/api/v1/attempts/stats/charts?days=730") }
	if err := charts(0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	took, err := loadkit.Timed(b.N, charts)
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(ms(loadkit.Percentile(took, 0.95)), "p95-ms")
	fmt.Printf("attempts=1000 n=%d charts p50=%.2fms p95=%.2fms\n", len(took), ms(loadkit.Percentile(took, 0.5)),
		ms(loadkit.Percentile(took, 0.95)))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// retally rebuilds every learner's running tallies from their attempts, as
// migration 00006 fills them: the benchmarks seed attempts in SQL, past
// the submit that keeps the tallies.
const retally = `DELETE FROM attempts.question_tallies; DELETE FROM attempts.day_tallies;
	INSERT INTO attempts.question_tallies (user_id, question_id, seen, correct)
	SELECT t.user_id, a.question_id, count(*), count(*) FILTER (WHERE a.is_correct)
	FROM attempts.attempts t JOIN attempts.answers a ON a.attempt_id = t.id
	WHERE t.completed_at IS NOT NULL GROUP BY t.user_id, a.question_id;
	INSERT INTO attempts.day_tallies (user_id, day, completed, answered, correct, percentage_sum)
	SELECT user_id, (completed_at AT TIME ZONE 'UTC')::date, count(*), sum(total_questions), sum(score),
	  sum(percentage::numeric)
	FROM attempts.attempts WHERE completed_at IS NOT NULL GROUP BY 1, 2`
