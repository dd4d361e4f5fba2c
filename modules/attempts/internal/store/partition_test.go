package store_test

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/db"
)

// The partitioning script's run at scale: go test ./modules/attempts/internal/store/
// -run TestPartitionAnswersScript -timeout 60m -args -partition-rows 10000000
// (docs/performance.md records it); `go tool task test` runs 100,000.
var partitionRows = flag.Int("partition-rows", 100_000, "answers rows TestPartitionAnswersScript fills before partitioning (a multiple of 200)")

// The script sits in scripts/, run by operators with psql.
const partitionScript = "../../../../scripts/partition-answers.sql"

// TestPartitionAnswersScript fills a fresh database with answers rows (50
// per attempt), runs scripts/partition-answers.sql as an operator would
// (psql), and checks that every row stayed, that the partitioned table has
// the old table's keys, indexes and foreign keys, attached on every
// partition and enforced, that new attempts land in the new partitions,
// that a second run only adds partitions, and that each of the store's own
// statements on answers reads only the partitions holding the attempts it
// names, with a generic plan (as a prepared statement runs).
func TestPartitionAnswersScript(t *testing.T) {
	n := *partitionRows
	if n < 200 || n%200 != 0 {
		t.Fatalf("-partition-rows %d: want a positive multiple of 200", n)
	}
	attempts := n / 50
	users := attempts / 5
	width := attempts / 4 // attempts a partition: the old rows fill four ranges' worth
	ctx := context.Background()
	d, url, do := freshDatabase(t)
	count := func(q string, args ...any) int64 {
		t.Helper()
		var c int64
		if err := d.Conn(ctx).Raw(q, args...).Scan(&c).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return c
	}

	// Learners sit quizzes of 50 questions out of 1,000; learner u's five
	// attempts are spread over the whole id range, as over time.
	began := time.Now()
	fill := func(from, to int) {
		t.Helper()
		do(`INSERT INTO attempts.attempts (id, user_id, quiz_id, quiz_title, mode, total_questions,
				score, percentage, completed_at)
			OVERRIDING SYSTEM VALUE
			SELECT a, a % ? + 1, a % 20 + 1, 'Quiz ' || a % 20, 'timed', 50, 25, 50, now()
			FROM generate_series(?::bigint, ?::bigint) a`, users, from, to)
		do(`SELECT setval(pg_get_serial_sequence('attempts.attempts', 'id'), ?)`, to)
		// Foreign keys are checked on the whole by the swap's attach, not row by row here.
		do(`SET session_replication_role = replica`)
		do(`INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id, user_answer, is_correct)
			SELECT a, p, (a * 7 + p) % 1000 + 1, (a * 7 + p) % 1000 + 1, 'B', (a + p) % 2 = 0
			FROM generate_series(?::bigint, ?::bigint) a, generate_series(0, 49) p`, from, to)
		do(`SET session_replication_role = DEFAULT`)
	}
	do(`INSERT INTO attempts.sat_questions (id, snapshot_key, question_id, version, question_type, question_text,
			options, correct_answer)
		OVERRIDING SYSTEM VALUE
		SELECT q, 'k' || q, q, 1, 'mcq', 'Question ' || q, '["A","B","C"]', 'B' FROM generate_series(1, 1000) q`)
	d.StdPool().SetMaxOpenConns(1) // the session setting above stays on one connection
	fill(1, attempts)
	d.StdPool().SetMaxOpenConns(0)
	do(`VACUUM ANALYZE attempts.attempts`)
	do(`VACUUM ANALYZE attempts.answers`)
	filled := time.Since(began)
	if got := count(`SELECT count(*) FROM attempts.answers`); got != int64(n) {
		t.Fatalf("filled %d answers, want %d", got, n)
	}
	var size string
	if err := d.Conn(ctx).Raw(`SELECT pg_size_pretty(pg_total_relation_size('attempts.answers'))`).Scan(&size).Error; err != nil {
		t.Fatal(err)
	}
	keysBefore, indexesBefore := answersDefinitions(t, d)

	// First run: the table becomes the first partition, four ranges ahead.
	took, out := runPartitionScript(t, url, width)
	t.Logf("filled %d answers (%s with indexes) in %s; the script's first run took %s:\n%s", n, size, filled.Round(time.Millisecond), took, out)

	bound := (attempts/width + 2) * width // the first partition's upper bound (step 1)
	var kind string
	if err := d.Conn(ctx).Raw(`SELECT relkind FROM pg_class WHERE oid = 'attempts.answers'::regclass`).Scan(&kind).Error; err != nil {
		t.Fatal(err)
	}
	if kind != "p" {
		t.Fatalf("attempts.answers is of kind %q after the script, want p (partitioned)", kind)
	}
	wantParts := []string{"answers_0"}
	for lo := bound; lo < attempts+4*width; lo += width {
		wantParts = append(wantParts, fmt.Sprintf("answers_%d", lo))
	}
	checkPartitions(t, d, wantParts)
	if got := count(`SELECT count(*) FROM attempts.answers`); got != int64(n) {
		t.Errorf("%d answers after the script, want %d", got, n)
	}
	if got := count(`SELECT count(*) FROM attempts.answers_0`); got != int64(n) {
		t.Errorf("%d answers in answers_0, want all %d", got, n)
	}
	keysAfter, indexesAfter := answersDefinitions(t, d)
	if !slices.Equal(keysAfter, keysBefore) {
		t.Errorf("keys and foreign keys after the script:\n%s\nbefore:\n%s", strings.Join(keysAfter, "\n"), strings.Join(keysBefore, "\n"))
	}
	if !slices.Equal(indexesAfter, indexesBefore) {
		t.Errorf("indexes after the script:\n%s\nbefore:\n%s", strings.Join(indexesAfter, "\n"), strings.Join(indexesBefore, "\n"))
	}

	// New attempts, each in the range after the first partition's.
	second := width / 2
	d.StdPool().SetMaxOpenConns(1)
	fill(bound, bound+second-1)
	d.StdPool().SetMaxOpenConns(0)
	if got := count(`SELECT count(*) FROM attempts.answers_` + fmt.Sprint(bound)); got != int64(second*50) {
		t.Errorf("%d answers in answers_%d, want the %d of the new attempts", got, bound, second*50)
	}
	// Through the store, as an attempt's start writes it and its answers in
	// one statement.
	s := store.New(d)
	started := store.Attempt{UserID: 1, QuizID: 1, QuizTitle: "Quiz 1", Mode: "timed", TotalQuestions: 2}
	if err := s.InsertAttempt(ctx, &started, []int64{5, 6}, []int64{5, 6}); err != nil {
		t.Fatal(err)
	}
	fresh := started.ID
	if got := count(`SELECT count(*) FROM attempts.answers_`+fmt.Sprint(bound)+` WHERE attempt_id = ?`, fresh); got != 2 {
		t.Errorf("the store's insert for attempt %d put %d rows in answers_%d, want 2", fresh, got, bound)
	}

	// A second run converts nothing and keeps four ranges ahead of the newest attempt.
	took2, out2 := runPartitionScript(t, url, width)
	t.Logf("the script's second run took %s:\n%s", took2, out2)
	wantParts = []string{"answers_0"}
	for lo := bound; lo < int(fresh)+4*width; lo += width {
		wantParts = append(wantParts, fmt.Sprintf("answers_%d", lo))
	}
	checkPartitions(t, d, wantParts)
	if got := count(`SELECT count(*) FROM attempts.answers`); got != int64(n+second*50+2) {
		t.Errorf("%d answers after the second run, want %d", got, n+second*50+2)
	}

	// The keys are enforced on both kinds of partition.
	for _, a := range []int64{1, fresh} {
		refused(t, d, "23505", `INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id)
			VALUES (?, 0, 999999, 1)`, a) // position 0 is taken
		refused(t, d, "23505", `INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id)
			SELECT attempt_id, 99, question_id, 1 FROM attempts.answers WHERE attempt_id = ? AND position = 0`, a)
		refused(t, d, "23514", `INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id)
			VALUES (?, -1, 999999, 1)`, a)
	}
	refused(t, d, "23503", `INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id)
		VALUES (?, 0, 1, 1)`, fresh+1) // no such attempt (yet)
	do(`DELETE FROM attempts.attempts WHERE id IN (2, ?)`, bound)
	if got := count(`SELECT count(*) FROM attempts.answers WHERE attempt_id IN (2, ?)`, bound); got != 0 {
		t.Errorf("deleting attempts 2 and %d left %d of their answers", bound, got)
	}
	do(`ANALYZE attempts.answers`)

	// Learner 3 has attempts in the first partition and in the second;
	// their reminders come from one of each.
	learner := int64(3)
	do(`INSERT INTO attempts.review_schedule (user_id, question_id, attempt_id, box, misses, due_at, last_missed_at)
		SELECT user_id, question_id, attempt_id, 1, 1, now(), now() FROM attempts.answers a
		  JOIN attempts.attempts t ON t.id = a.attempt_id
		 WHERE attempt_id IN (SELECT min(id) FROM attempts.attempts WHERE user_id = ? AND id < ?
		                      UNION ALL SELECT min(id) FROM attempts.attempts WHERE user_id = ? AND id >= ?)
		   AND position < 3
		ON CONFLICT DO NOTHING`, learner, bound, learner, bound)
	// A picture both attempts show, so the media check finds its row.
	do(`UPDATE attempts.sat_questions SET image_path = 'k.png'
		WHERE id IN (SELECT sat_question_id FROM attempts.answers WHERE attempt_id IN (1, ?) AND position = 0)`, fresh)

	// The store's statements on answers, captured as it runs them.
	var mu sync.Mutex
	var seen []captured
	record := func(tx *gorm.DB) {
		q := tx.Statement.SQL.String()
		if strings.Contains(q, "attempts.answers") && !strings.HasPrefix(q, "INSERT") {
			mu.Lock()
			seen = append(seen, captured{q, slices.Clone(tx.Statement.Vars)})
			mu.Unlock()
		}
	}
	cb := d.Conn(ctx).Callback()
	if err := errors.Join(cb.Row().After("*").Register("test:capture_row", record),
		cb.Raw().After("*").Register("test:capture_raw", record)); err != nil {
		t.Fatal(err)
	}
	for _, a := range []int64{1, fresh} {
		qs, err := s.AttemptQuestions(ctx, a)
		if err != nil || len(qs) == 0 || qs[0].Position != 0 {
			t.Errorf("AttemptQuestions(%d) = %d rows, %v", a, len(qs), err)
		}
		if _, err := s.CountInAttempt(ctx, a, []int64{5, 6}); err != nil {
			t.Error(err)
		}
		if ids, err := s.AttemptQuestionIDs(ctx, a); err != nil || len(ids) == 0 {
			t.Errorf("AttemptQuestionIDs(%d) = %v, %v", a, ids, err)
		}
		if shows, err := s.AttemptShowsMedia(ctx, a, "k.png", false); err != nil || !shows {
			t.Errorf("AttemptShowsMedia(%d) = %v, %v", a, shows, err)
		}
		b := "B"
		if err := s.SetAnswers(ctx, a, []store.Graded{{Position: 0, UserAnswer: &b, IsCorrect: true}}); err != nil {
			t.Error(err)
		}
	}
	if rs, err := s.Reminders(ctx, learner, false, 50, 0); err != nil || len(rs) == 0 {
		t.Errorf("Reminders(%d) = %d rows, %v", learner, len(rs), err)
	}
	_ = cb.Row().Remove("test:capture_row")
	_ = cb.Raw().Remove("test:capture_raw")

	// Which partitions may each statement read: those of the attempts it names.
	var learnerParts []string
	if err := d.Conn(ctx).Raw(`SELECT DISTINCT tableoid::regclass::text FROM attempts.answers
		WHERE attempt_id IN (SELECT id FROM attempts.attempts WHERE user_id = ?)`, learner).Scan(&learnerParts).Error; err != nil {
		t.Fatal(err)
	}
	for i := range learnerParts {
		learnerParts[i] = strings.TrimPrefix(learnerParts[i], "attempts.")
	}
	if len(seen) != 11 {
		t.Fatalf("captured %d statements on attempts.answers, want the 11 the store ran", len(seen))
	}
	conn, err := d.StdPool().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, c := range seen {
		allowed := learnerParts
		for _, v := range c.vars {
			if a, ok := v.(int64); ok && (a == 1 || a == fresh) {
				allowed = []string{"answers_0"}
				if a == fresh {
					allowed = []string{fmt.Sprintf("answers_%d", bound)}
				}
			}
		}
		plan := genericPlan(t, conn, d, c)
		read, scanned, removed := partitionsRead(plan)
		if len(read) == 0 || !containsAll(allowed, read) || len(scanned) > 0 {
			t.Errorf("the store's statement\n%s\nread partitions %v (allowed %v, %d removed):\n%s", c.sql, read, allowed, removed, plan)
		} else {
			t.Logf("reads %v of %d partitions (%d removed at start): %.80s", read, len(wantParts), removed, strings.Join(strings.Fields(c.sql), " "))
		}
	}
}

// captured is one statement the store ran, with its parameters.
type captured struct {
	sql  string
	vars []any
}

// runPartitionScript runs scripts/partition-answers.sql with psql as an
// operator would, with width attempts a partition.
func runPartitionScript(t *testing.T, url string, width int) (time.Duration, string) {
	t.Helper()
	cmd := exec.Command("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", partitionScript, url)
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("PGOPTIONS=-c rounds.answers_partition_width=%d", width))
	began := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(began).Round(time.Millisecond)
	if err != nil {
		t.Fatalf("psql -f %s: %v\n%s", partitionScript, err, out)
	}
	return took, string(out)
}

// answersDefinitions lists attempts.answers' keys and foreign keys and its
// other indexes, as definitions (a partitioned table's index reads "ON ONLY").
func answersDefinitions(t *testing.T, d *db.DB) (keys, indexes []string) {
	t.Helper()
	c := d.Conn(context.Background())
	if err := c.Raw(`SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
		WHERE conrelid = 'attempts.answers'::regclass ORDER BY conname`).Scan(&keys).Error; err != nil {
		t.Fatal(err)
	}
	if err := c.Raw(`SELECT replace(pg_get_indexdef(indexrelid), ' ON ONLY ', ' ON ') FROM pg_index
		WHERE indrelid = 'attempts.answers'::regclass ORDER BY 1`).Scan(&indexes).Error; err != nil {
		t.Fatal(err)
	}
	return keys, indexes
}

// checkPartitions wants exactly these partitions, each with every index
// and foreign key of the parent attached.
func checkPartitions(t *testing.T, d *db.DB, want []string) {
	t.Helper()
	c := d.Conn(context.Background())
	var got []string
	if err := c.Raw(`SELECT c.relname FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
		WHERE h.inhparent = 'attempts.answers'::regclass ORDER BY c.relname`).Scan(&got).Error; err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("partitions %v, want %v", got, want)
	}
	var loose []string
	if err := c.Raw(`SELECT p.relname || ': ' || what FROM pg_inherits h JOIN pg_class p ON p.oid = h.inhrelid
		CROSS JOIN LATERAL (
		  SELECT 'index ' || pi.indexrelid::regclass::text AS what FROM pg_index pi
		   WHERE pi.indrelid = 'attempts.answers'::regclass
		     AND NOT EXISTS (SELECT 1 FROM pg_inherits ih JOIN pg_index ci ON ci.indexrelid = ih.inhrelid
		                      WHERE ih.inhparent = pi.indexrelid AND ci.indrelid = p.oid)
		  UNION ALL
		  SELECT 'foreign key ' || pc.conname FROM pg_constraint pc
		   WHERE pc.conrelid = 'attempts.answers'::regclass AND pc.contype = 'f'
		     AND NOT EXISTS (SELECT 1 FROM pg_constraint cc WHERE cc.conparentid = pc.oid AND cc.conrelid = p.oid)
		) m
		WHERE h.inhparent = 'attempts.answers'::regclass`).Scan(&loose).Error; err != nil {
		t.Fatal(err)
	}
	if len(loose) > 0 {
		t.Errorf("partitions missing the parent's definitions: %v", loose)
	}
}

// refused wants the statement refused with SQLSTATE code.
func refused(t *testing.T, d *db.DB, code, q string, args ...any) {
	t.Helper()
	err := d.Conn(context.Background()).Exec(q, args...).Error
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != code {
		t.Errorf("%s (%v): %v, want SQLSTATE %s", q, args, err, code)
	}
}

// genericPlan runs c as a prepared statement forced to a generic plan, as
// the driver's statement cache ends up running it, and returns EXPLAIN
// ANALYZE's plan (a write is rolled back).
func genericPlan(t *testing.T, conn *sql.Conn, d *db.DB, c captured) string {
	t.Helper()
	ctx := context.Background()
	args := make([]string, len(c.vars))
	for i, v := range c.vars {
		args[i] = d.Conn(ctx).Dialector.Explain("$1", v)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, q := range []string{"SET LOCAL plan_cache_mode = force_generic_plan", "PREPARE partition_probe AS " + c.sql} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	defer conn.ExecContext(ctx, "DEALLOCATE partition_probe")
	rows, err := tx.QueryContext(ctx, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE partition_probe("+strings.Join(args, ", ")+")")
	if err != nil {
		t.Fatalf("explain %s: %v", c.sql, err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		b.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	scanOn          = regexp.MustCompile(`Scan(?: using \S+)? on (answers_\d+)`)
	subplansRemoved = regexp.MustCompile(`Subplans Removed: (\d+)`)
)

// partitionsRead lists the answers partitions a plan's scans ran on (not
// "never executed"), those of them read whole (a sequential scan) and how
// many subplans the executor pruned at start.
func partitionsRead(plan string) (read, scanned []string, pruned int) {
	for _, line := range strings.Split(plan, "\n") {
		if m := subplansRemoved.FindStringSubmatch(line); m != nil {
			k, _ := strconv.Atoi(m[1])
			pruned += k
		}
		m := scanOn.FindStringSubmatch(line)
		if m == nil || strings.Contains(line, "never executed") {
			continue
		}
		if !slices.Contains(read, m[1]) {
			read = append(read, m[1])
		}
		if strings.Contains(line, "Seq Scan on ") {
			scanned = append(scanned, m[1])
		}
	}
	slices.Sort(read)
	return read, scanned, pruned
}

func containsAll(set, items []string) bool {
	for _, i := range items {
		if !slices.Contains(set, i) {
			return false
		}
	}
	return true
}
