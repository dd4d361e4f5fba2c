package store_test

// BenchmarkBankListing measures GET /questions/bank over 100,000 questions
// with combined filters, through the whole app on loopback (HTTP, auth,
// service, two queries), and prints the EXPLAIN (ANALYZE, BUFFERS) of the
// page and count queries for a combined filter. It is not run by `go test`
// without -bench:
//
//	go test ./modules/bank/internal/store/ -run '^$' -bench BankListing -benchtime 2000x
//
// Beside it, the page and count statements the app ran for each shape
// (captured from gorm on the warm-up requests) are replayed as raw SQL on
// the same database, as often as the shape was requested: the listing's
// cost over its queries alone. The comparison is printed as one bench-table
// row (loadkit.EmitRow) that `go tool task bench` merges into its table.
//
// Data: the demo bank's 468 questions varied into 100,000 (each stem gets
// two extra clinical words), filed under the demo tree (5% unfiled, 1%
// trashed), each with its source's subject and disease tags, three in four
// rated for difficulty; 2,000 quizzes of 20 questions; 2,000 favourites
// for the benchmark moderator. Rows are
// loaded with COPY in chunks so no transaction stays open long (event
// delivery on the whole cluster waits for the oldest open transaction).

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

const benchQuestions = 100_000

type benchEnv struct {
	h        *harness.Harness
	mod      *harness.User
	holder   *harness.User
	requests []benchRequest
	explain  *store.BankQuery
}

type benchRequest struct {
	name  string
	user  *harness.User
	query string
}

var (
	envOnce sync.Once
	env     *benchEnv
	envErr  error
)

func BenchmarkBankListing(b *testing.B) {
	envOnce.Do(func() { env, envErr = setUp() })
	if envErr != nil {
		b.Fatal(envErr)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	// Warm the pool and the caches once per request shape, capturing the
	// shape's statements on the first run.
	for _, r := range env.requests {
		captured.start(r.name)
		_, err := call(client, r)
		captured.stop()
		if err != nil {
			b.Fatal(err)
		}
	}
	per := map[string][]time.Duration{}
	var all []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := env.requests[i%len(env.requests)]
		d, err := call(client, r)
		if err != nil {
			b.Fatal(err)
		}
		per[r.name] = append(per[r.name], d)
		all = append(all, d)
	}
	b.StopTimer()
	b.ReportMetric(ms(pct(all, 50)), "p50-ms")
	b.ReportMetric(ms(pct(all, 95)), "p95-ms")
	b.ReportMetric(ms(pct(all, 99)), "p99-ms")
	for _, r := range env.requests {
		if d := per[r.name]; len(d) > 0 {
			fmt.Printf("%-34s n=%4d p50=%6.2fms p95=%6.2fms  %s\n", r.name, len(d), ms(pct(d, 50)), ms(pct(d, 95)), r.query)
		}
	}
	if b.N >= len(env.requests) {
		explain(b)
		if err := compareRaw(per, all); err != nil {
			b.Fatal(err)
		}
	}
}

// statement is one page or count query as the app sent it (SQL with $n
// placeholders and the bound values).
type statement struct {
	sql  string
	args []any
}

// capture records, per request shape, the listing's page and count
// statements from a gorm callback registered once after gorm's own
// row-query callback (the listing runs them with Raw(...).Scan).
type capture struct {
	mu    sync.Mutex
	shape string // "" when not recording
	stmts map[string][]statement
}

var captured = &capture{stmts: map[string][]statement{}}

func (c *capture) register(db *gorm.DB) error {
	return db.Callback().Row().After("gorm:row").Register("bench:capture", func(tx *gorm.DB) {
		sql := strings.TrimSpace(tx.Statement.SQL.String())
		if !strings.Contains(sql, "bank.questions") ||
			!(strings.HasPrefix(sql, "SELECT count(*) FROM") || strings.HasPrefix(sql, "WITH p AS (")) {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.shape != "" {
			c.stmts[c.shape] = append(c.stmts[c.shape], statement{sql, slices.Clone(tx.Statement.Vars)})
		}
	})
}

// start records the next request's statements under shape, unless an
// earlier run recorded them.
func (c *capture) start(shape string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, done := c.stmts[shape]; !done {
		c.shape = shape
	}
}

func (c *capture) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shape = ""
}

// compareRaw replays each shape's captured statements with pgx, in a
// transaction that plans them for their values as the store's does, as
// many times as the shape was requested, and prints the bench row: the
// HTTP listing beside its raw SQL, with the per-shape range of p50s.
func compareRaw(per map[string][]time.Duration, all []time.Duration) error {
	ctx := context.Background()
	pg, err := pgx.Connect(ctx, env.h.DBURL)
	if err != nil {
		return err
	}
	defer pg.Close(ctx)
	// replay returns the page's question ids (its second column).
	replay := func(stmts []statement) (page []int64, err error) {
		tx, err := pg.Begin(ctx)
		if err != nil {
			return nil, err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		if _, err := tx.Exec(ctx, `SET LOCAL plan_cache_mode = force_custom_plan`); err != nil {
			return nil, err
		}
		for _, s := range stmts {
			rows, err := tx.Query(ctx, s.sql, s.args...)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				v, err := rows.Values()
				if err != nil {
					return nil, err
				}
				if id, ok := v[min(1, len(v)-1)].(int64); ok && strings.HasPrefix(s.sql, "WITH p AS (") {
					page = append(page, id)
				}
			}
			if rows.Err() != nil {
				return nil, rows.Err()
			}
		}
		return page, tx.Commit(ctx)
	}
	var raw []time.Duration
	var httpTime, rawTime time.Duration
	lo, hi := 0.0, 0.0
	for _, r := range env.requests {
		stmts, n := captured.stmts[r.name], len(per[r.name])
		if len(stmts) == 0 || n == 0 {
			return fmt.Errorf("%s: no captured page or count statement", r.name)
		}
		// Warm, as the HTTP side was, and check the replay lists the page
		// the listing does.
		page, err := replay(stmts)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		var listed struct{ Questions []struct{ ID int64 } }
		r.user.Client(env.h).Get("/api/v1/questions/bank?" + r.query).JSON(&listed)
		var want []int64
		for _, q := range listed.Questions {
			want = append(want, q.ID)
		}
		if !slices.Equal(page, want) {
			return fmt.Errorf("%s: the raw statements list %v, the listing %v", r.name, page, want)
		}
		var mine []time.Duration
		for range n {
			t0 := time.Now()
			if _, err := replay(stmts); err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
			mine = append(mine, time.Since(t0))
		}
		raw = append(raw, mine...)
		for i := range n {
			httpTime += per[r.name][i]
			rawTime += mine[i]
		}
		times := float64(pct(per[r.name], 50)) / float64(pct(mine, 50))
		if lo == 0 || times < lo {
			lo = times
		}
		hi = max(hi, times)
	}
	row := loadkit.NewRow(fmt.Sprintf("`GET /questions/bank`, %d filter shapes over %dk questions, 1 client",
		len(env.requests), benchQuestions/1000), all, httpTime, 0)
	rawRow := loadkit.NewRow("", raw, rawTime, 0)
	row.Limit = fmt.Sprintf("the same page+count statements as raw SQL (pgx): %.0f/s, %.1f / %.1f / %.1f ms; HTTP p50 %.2f-%.2f × raw per shape",
		rawRow.Rate, rawRow.P50, rawRow.P95, rawRow.P99, lo, hi)
	row.Ratio = row.Rate / rawRow.Rate
	return loadkit.EmitRow(os.Stdout, row)
}

func call(c *http.Client, r benchRequest) (time.Duration, error) {
	req, _ := http.NewRequest(http.MethodGet, env.h.BaseURL+"/api/v1/questions/bank?"+r.query, nil)
	req.Header.Set("Authorization", "Bearer "+r.user.Token)
	t0 := time.Now()
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	buf := make([]byte, 32<<10)
	for {
		if _, err := res.Body.Read(buf); err != nil {
			break
		}
	}
	d := time.Since(t0)
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: status %d", r.query, res.StatusCode)
	}
	return d, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return s[i-1]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func explain(b *testing.B) {
	ctx := context.Background()
	conn := env.h.App.DB.Conn(ctx)
	for _, part := range []struct {
		name string
		sql  func() (string, []any)
	}{
		{"count", env.explain.CountSQL},
		{"page", func() (string, []any) { return env.explain.PageSQL(50, 0) }},
	} {
		sql, args := part.sql()
		var lines []string
		if err := conn.Raw("EXPLAIN (ANALYZE, BUFFERS) "+sql, args...).Scan(&lines).Error; err != nil {
			b.Fatal(err)
		}
		fmt.Printf("EXPLAIN (ANALYZE, BUFFERS) of the %s query (keyword q, two categories' branches, a subject tag):\n%s\n\n",
			part.name, strings.Join(lines, "\n"))
	}
}

// setUp boots the app on a fresh database and loads the benchmark bank.
// With BANK_BENCH_DB=<url> it reuses a database an earlier run loaded (kept
// with BANK_BENCH_KEEP=1) instead, to iterate on queries quickly.
func setUp() (*benchEnv, error) {
	ctx := context.Background()
	e := &benchEnv{}
	reuse := os.Getenv("BANK_BENCH_DB")
	if reuse == "" {
		h, err := harness.Start(harness.WithConfig(realistic))
		if err != nil {
			return nil, err
		}
		e.h = h
	} else {
		h, err := startOn(ctx, reuse)
		if err != nil {
			return nil, err
		}
		e.h = h
		// The test users of the earlier run go (their favourites stay behind).
		if err := h.App.DB.Conn(ctx).Exec(`DELETE FROM identity.users WHERE email LIKE '%@example.test'`).Error; err != nil {
			return nil, err
		}
	}
	if err := captured.register(e.h.App.DB.Detached(ctx)); err != nil {
		return nil, err
	}
	e.mod = e.h.NewUser(auth.RoleModerator)
	pg, err := pgx.Connect(ctx, e.h.DBURL)
	if err != nil {
		return nil, err
	}
	defer pg.Close(ctx)
	if reuse == "" {
		if _, err := app.Lookup[*bank.Module](e.h.App).SeedDemo(ctx); err != nil {
			return nil, err
		}
		t0 := time.Now()
		if err := load(ctx, pg); err != nil {
			return nil, err
		}
		fmt.Printf("loaded %d questions in %s into %s\n", benchQuestions, time.Since(t0).Round(time.Millisecond), e.h.DBURL)
	}
	if _, err := pg.Exec(ctx, `INSERT INTO bank.favorites (user_id, question_id)
		SELECT $1, id FROM bank.questions WHERE id % 50 = 0 ON CONFLICT DO NOTHING`, e.mod.ID); err != nil {
		return nil, err
	}
	if _, err := pg.Exec(ctx, `ANALYZE bank.favorites`); err != nil {
		return nil, err
	}
	return e, e.plan(ctx, pg)
}

// startOn runs the app on an existing database (no clone, no migration).
func startOn(ctx context.Context, dbURL string) (*harness.Harness, error) {
	dir, err := os.MkdirTemp("", "bank-bench-")
	if err != nil {
		return nil, err
	}
	cfg, err := harness.TestConfig(dbURL, dir)
	if err != nil {
		return nil, err
	}
	realistic(cfg)
	a, err := app.New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	if err := a.Start(ctx, app.RoleAll); err != nil {
		return nil, err
	}
	return &harness.Harness{App: a, Config: cfg, DBURL: dbURL, BaseURL: "http://" + a.HTTPAddr(),
		HTTP: &http.Client{Timeout: 30 * time.Second}}, nil
}

// realistic undoes the test harness's shortcuts that cost time per request:
// the caller's role is cached as in production.
func realistic(c *config.Config) {
	c.Auth.RoleCacheTTL = 5 * time.Second
	if extra := os.Getenv("BANK_BENCH_DB_PARAMS"); extra != "" {
		c.Database.URL += "&" + extra
	}
}

// TestMain stops the benchmark's app at exit and drops its database unless
// BANK_BENCH_KEEP=1 or it was reused.
func TestMain(m *testing.M) {
	code := m.Run()
	if env != nil {
		if os.Getenv("BANK_BENCH_KEEP") == "" && os.Getenv("BANK_BENCH_DB") == "" {
			_ = env.h.Stop()
		} else {
			_ = env.h.App.Stop()
		}
	}
	os.Exit(code)
}

// load multiplies the demo bank into benchQuestions rows with COPY.
func load(ctx context.Context, pg *pgx.Conn) error {
	type source struct {
		typ, text, answer, explanation string
		options                        string
		category                       int64
		tags                           []int64
	}
	var sources []source
	rows, err := pg.Query(ctx, `SELECT q.question_type, q.question_text, q.correct_answer, q.explanation,
		q.options::text, q.question_category_id, array_agg(qt.tag_id)
		FROM bank.questions q JOIN bank.question_tags qt ON qt.question_id = q.id GROUP BY q.id`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var s source
		if err := rows.Scan(&s.typ, &s.text, &s.answer, &s.explanation, &s.options, &s.category, &s.tags); err != nil {
			return err
		}
		sources = append(sources, s)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	words := strings.Fields("fever pain acute chronic bilateral elderly child pregnancy smoker renal hepatic " +
		"cardiac pulmonary neurological rash cough dyspnoea vomiting haematuria anaemia infection tumour " +
		"ultrasound biopsy antibiotics steroids surgery emergency outpatient recurrent sudden progressive")
	rng := rand.New(rand.NewPCG(1, 2))
	const chunk = 10_000
	for start := 0; start < benchQuestions; start += chunk {
		batch := make([][]any, 0, chunk)
		origin := make([][]int64, 0, chunk)
		for i := start; i < start+chunk; i++ {
			s := sources[rng.IntN(len(sources))]
			origin = append(origin, s.tags)
			text := s.text + " " + words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
			var cat any = s.category
			if rng.IntN(100) < 5 {
				cat = nil
			}
			var deleted any
			if rng.IntN(100) == 0 {
				deleted = time.Now()
			}
			batch = append(batch, []any{s.typ, text, s.options, s.answer, s.explanation, cat, deleted})
		}
		var last int64
		if err := pg.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM bank.questions`).Scan(&last); err != nil {
			return err
		}
		_, err := pg.CopyFrom(ctx, pgx.Identifier{"bank", "questions"},
			[]string{"question_type", "question_text", "options", "correct_answer", "explanation",
				"question_category_id", "deleted_at"}, pgx.CopyFromRows(batch))
		if err != nil {
			return err
		}
		// One session allocates the ids in row order: the i-th new id is
		// the i-th row of the batch.
		var tagRows [][]any
		ids, err := pg.Query(ctx, `SELECT id FROM bank.questions WHERE id > $1 ORDER BY id`, last)
		if err != nil {
			return err
		}
		for n := 0; ids.Next(); n++ {
			var qid int64
			if err := ids.Scan(&qid); err != nil {
				return err
			}
			for _, t := range origin[n] {
				tagRows = append(tagRows, []any{qid, t})
			}
		}
		if err := ids.Err(); err != nil {
			return err
		}
		if _, err := pg.CopyFrom(ctx, pgx.Identifier{"bank", "question_tags"}, []string{"question_id", "tag_id"},
			pgx.CopyFromRows(tagRows)); err != nil {
			return err
		}
	}
	steps := []string{
		`INSERT INTO bank.quizzes (user_id, title, mode, is_published)
		 SELECT 1, 'Bench quiz ' || g, 'timed', g % 5 <> 0 FROM generate_series(1, 2000) g`,
		`INSERT INTO bank.quiz_questions (quiz_id, question_id, position)
		 SELECT z.id, 451 + ((z.id * 7919 + p * 104729) % ` + fmt.Sprint(benchQuestions) + `), p
		 FROM bank.quizzes z, generate_series(1, 20) p WHERE z.title LIKE 'Bench quiz %'
		 ON CONFLICT DO NOTHING`,
		// Three in four questions rated, the levels in equal parts.
		`UPDATE bank.questions SET difficulty = (ARRAY['easy', 'medium', 'hard'])[1 + id % 3] WHERE id % 4 <> 0`,
		// What autovacuum does in steady state: statistics, and the
		// visibility map that lets counts run as index-only scans.
		`VACUUM (ANALYZE) bank.questions`, `VACUUM (ANALYZE) bank.question_tags`,
		`VACUUM (ANALYZE) bank.quiz_questions`, `VACUUM (ANALYZE) bank.quizzes`,
	}
	for _, sql := range steps {
		if _, err := pg.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", sql[:40], err)
		}
	}
	return settleVisibility(ctx, pg, "bank.questions", "bank.question_tags", "bank.quiz_questions", "bank.quizzes")
}

// settleVisibility vacuums each table again until its visibility map
// covers it: a VACUUM that ran while the app's pollers held a snapshot
// leaves pages not all-visible, and the counts then read the heap (3 to
// 10 times slower, which made runs of one commit differ by that much).
func settleVisibility(ctx context.Context, pg *pgx.Conn, tables ...string) error {
	for _, t := range tables {
		for try := 0; ; try++ {
			var pages, visible int64
			if err := pg.QueryRow(ctx, `SELECT relpages, relallvisible FROM pg_class WHERE oid = CAST($1 AS regclass)`,
				t).Scan(&pages, &visible); err != nil {
				return err
			}
			if visible >= pages {
				break
			}
			if try == 20 {
				return fmt.Errorf("%s: %d of %d pages all-visible after %d vacuums", t, visible, pages, try)
			}
			time.Sleep(250 * time.Millisecond)
			if _, err := pg.Exec(ctx, "VACUUM "+t); err != nil {
				return err
			}
		}
	}
	return nil
}

// plan picks real ids for the combined filters and builds the requests.
func (e *benchEnv) plan(ctx context.Context, pg *pgx.Conn) error {
	id := func(sql string, args ...any) int64 {
		var v int64
		if err := pg.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
			panic(fmt.Sprintf("%s: %v", sql, err))
		}
		return v
	}
	cardio := id(`SELECT id FROM bank.question_categories WHERE name = 'Cardiovascular'`)
	resp := id(`SELECT id FROM bank.question_categories WHERE name = 'Respiratory'`)
	topic := id(`SELECT id FROM bank.question_categories WHERE name = 'Arrhythmias'`)
	therapeutics := id(`SELECT id FROM bank.tags WHERE type = 'subject' AND name = 'Therapeutics'`)
	diagnosis := id(`SELECT id FROM bank.tags WHERE type = 'subject' AND name = 'Clinical diagnosis'`)
	disease := id(`SELECT id FROM bank.tags WHERE type = 'disease' AND name = 'Atrial fibrillation'`)
	system := id(`SELECT id FROM bank.tags WHERE type = 'system' AND name = 'Endocrine'`)
	quiz := id(`SELECT id FROM bank.quizzes WHERE title = 'Bench quiz 17'`)

	e.holder = e.h.NewUser(auth.RoleUser)
	for _, g := range []harnessBody{{"kind": "category", "target_id": cardio}, {"kind": "quiz", "target_id": quiz}} {
		res := e.mod.Client(e.h).Post(fmt.Sprintf("/api/v1/access/%d/grants", e.holder.ID), g)
		if res.Status != http.StatusCreated {
			return fmt.Errorf("grant: %d %s", res.Status, res.Body)
		}
	}
	m, gh := e.mod, e.holder
	e.requests = []benchRequest{
		{"no filter, first page", m, "limit=50"},
		{"branch + subject tag", m, fmt.Sprintf("category_id=%d&tag_ids=%d", cardio, therapeutics)},
		{"keyword + two branches", m, fmt.Sprintf("q=chest+pain&search_mode=keyword&category_ids=%d,%d", cardio, resp)},
		{"keyword + subject AND disease", m, fmt.Sprintf("q=management&search_mode=keyword&tag_ids=%d,%d", therapeutics, disease)},
		{"favourites + keyword", m, "favorites_only=true&q=fever&search_mode=keyword"},
		{"quiz + subject tag", m, fmt.Sprintf("quiz_id=%d&tag_ids=%d", quiz, diagnosis)},
		{"uncategorised + keyword", m, "uncategorized=true&q=pain&search_mode=keyword"},
		{"system tag + keyword", m, fmt.Sprintf("tag_ids=%d&q=weight&search_mode=keyword", system)},
		{"topic, deep page", m, fmt.Sprintf("category_id=%d&offset=1000&limit=50", topic)},
		{"hybrid (default mode) + branch", m, fmt.Sprintf("q=antibiotics&category_id=%d", resp)},
		{"grant holder, keyword", gh, "q=pain&search_mode=keyword&limit=100"},
		{"grant holder, no filter", gh, "limit=50"},
		{"difficulty", m, "difficulty=hard&limit=50"},
		{"branch + two difficulties", m, fmt.Sprintf("category_id=%d&difficulty=easy,medium", cardio)},
	}
	tree := map[int64][]int64{}
	crow, err := pg.Query(ctx, `SELECT id, coalesce(parent_id, 0) FROM bank.question_categories`)
	if err != nil {
		return err
	}
	for crow.Next() {
		var c, p int64
		if err := crow.Scan(&c, &p); err != nil {
			return err
		}
		tree[p] = append(tree[p], c)
	}
	branch := func(root int64) []int64 {
		out := []int64{root}
		for i := 0; i < len(out); i++ {
			out = append(out, tree[out[i]]...)
		}
		return out
	}
	e.explain = &store.BankQuery{EditAll: true, ShowAllQuizzes: true, UserID: e.mod.ID, HasCategories: true,
		Categories: append(branch(cardio), branch(resp)...), DirectTags: []int64{therapeutics},
		Match: store.MatchKeyword, Text: "chest pain"}
	return nil
}

type harnessBody = map[string]any
