// Command bench measures the search index at scale: it boots the real app on
// a fresh database, loads N synthetic questions (vectors from the local
// embedder), builds the indexes as the migration defines them, then
// reports latency percentiles of hybrid search (through the facade and
// through GET /search), of typeahead, and the recall@10 of the HNSW index
// against an exact scan. HNSW draws its graph's levels at random, so the
// recall moves from one build to the next: it builds the index -builds
// times (5 by default) and reports the spread of build time, GET /search's
// p95 and recall, each figure beside the host's load average. -with builds
// other HNSW parameters than the migration's, to compare them on one load.
// Its last lines are GET /search's bench-table row with the recall at the
// configured ef_search (loadkit.EmitRow) and issue 37's search goal over
// every build (loadkit.EmitGoal), which `go tool task bench` merges into
// its table.
//
//	go run ./scripts/bench/search -n 100000 -queries 300
//	go run ./scripts/bench/search -n 100000 -with 'm=16, ef_construction=64; m=24, ef_construction=128'
//
// It needs the local Postgres (`go tool task db:start`) and drops its
// database when done.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pgvector/pgvector-go"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func main() {
	var o settings
	flag.IntVar(&o.n, "n", 100_000, "questions to load")
	flag.IntVar(&o.queries, "queries", 300, "measured queries per scenario")
	flag.IntVar(&o.concurrency, "concurrency", 4, "clients in the concurrent scenario")
	flag.IntVar(&o.builds, "builds", 5, "HNSW builds measured (HNSW draws its levels at random: recall moves from build to build)")
	with := flag.String("with", "", "HNSW parameters to build with instead of the migration's, ';' between variants, each built -builds times: -with 'm=16, ef_construction=64; m=24, ef_construction=128' (empty: the migration's)")
	flag.Parse()
	o.variants = strings.Split(*with, ";")
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

type settings struct {
	n, queries, concurrency, builds int
	variants                        []string
}

func run(o settings) error {
	ctx := context.Background()
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) {
		c.Database.MaxOpenConns = 20
	}))
	if err != nil {
		return err
	}
	defer func() {
		if err := h.Stop(); err != nil {
			log.Print(err)
		}
	}()
	mod := app.Lookup[*search.Module](h.App)
	cfg, probe := mod.Config(), mod.Probe()
	fmt.Printf("search benchmark: %d questions, %d dims, local embedder, hnsw ef_search %d, %d CPUs\n",
		o.n, cfg.EmbeddingDims, cfg.HNSWEfSearch, runtime.NumCPU())

	start := time.Now()
	hnsw, err := load(ctx, h, probe, o.n)
	if err != nil {
		return err
	}
	fmt.Printf("loaded in %s (%s)\n", time.Since(start).Round(time.Second), loadAvg())

	r := rand.New(rand.NewPCG(7, 11))
	qs := make([]string, o.queries)
	for i := range qs {
		qs[i] = query(r)
	}
	truths, err := exactTop10(ctx, probe, qs)
	if err != nil {
		return err
	}
	u := h.NewUser(auth.RoleUser)
	client := u.Client(h)

	hybrid := func(q string) error {
		_, err := mod.Hybrid(ctx, search.KindQuestion, q, 20, true)
		return err
	}
	global := func(q string) error {
		res := client.Get("/api/v1/search?kinds=question&per_kind=20&q=" + url.QueryEscape(q))
		if res.Status != 200 {
			return fmt.Errorf("GET /search: %d %s", res.Status, res.Body)
		}
		return nil
	}
	suggest := func(q string) error {
		typed := q[:max(2, len(q)*2/3)]
		res := client.Get("/api/v1/search/suggest?kinds=question&q=" + url.QueryEscape(typed))
		if res.Status != 200 {
			return fmt.Errorf("GET /search/suggest: %d %s", res.Status, res.Body)
		}
		return nil
	}
	keywordOnly := func(q string) error {
		_, err := probe.Keyword(ctx, search.KindQuestion, q, 60)
		return err
	}
	vectorOnly := func(q string) error {
		_, err := probe.Vector(ctx, search.VectorQuery{Kind: string(search.KindQuestion), Vector: probe.Embed(q), Model: search.LocalModel,
			Limit: 60, EfSearch: cfg.HNSWEfSearch, MinSimilarity: cfg.HybridMinSimilarity})
		return err
	}
	type scenario struct {
		name    string
		fn      func(string) error
		clients int
	}
	const throughHTTP = "GET /search?kinds=question"
	// Every build: the vector ranker and GET /search timed, recall counted.
	each := []scenario{{"vector ranker alone (60)", vectorOnly, 1}, {throughHTTP, global, 1}}
	// The first build also times the rest.
	first := []scenario{{"keyword ranker alone (60)", keywordOnly, 1}, {"hybrid (facade, rerank unset)", hybrid, 1},
		{"GET /search/suggest", suggest, 1}, {fmt.Sprintf("hybrid (facade), %d clients", o.concurrency), hybrid, o.concurrency}}

	var row loadkit.Row
	var goal loadkit.Goal
	for vi, with := range o.variants {
		def := withParams(hnsw, with)
		fmt.Printf("\n%s\n", def)
		var builds []build
		for b := range o.builds {
			var m build
			if m.took, err = buildHNSW(ctx, h, def); err != nil {
				return err
			}
			fmt.Printf("\nbuild %d of %d: HNSW built in %s, %s (%s)\n", b+1, o.builds, m.took.Round(time.Second),
				indexSize(ctx, h, def), loadAvg())
			scs := each
			if vi == 0 && b == 0 {
				scs = append(scs, first...)
			}
			for _, sc := range scs {
				lat, err := measure(qs, sc.clients, sc.fn)
				if err != nil {
					return err
				}
				if sc.name == throughHTTP {
					m.http = lat
				}
				fmt.Printf("%-36s p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%s)\n", sc.name,
					pct(lat, 50), pct(lat, 95), pct(lat, 99), pct(lat, 100), loadAvg())
			}
			if m.recall, err = recallAt10(ctx, probe, truths, cfg.HNSWEfSearch); err != nil {
				return err
			}
			builds = append(builds, m)
		}
		r, g := summarize(o.n, cfg.HNSWEfSearch, builds)
		if vi == 0 {
			row, goal = r, g
		}
	}
	if err := loadkit.EmitRow(os.Stdout, row); err != nil {
		return err
	}
	return loadkit.EmitGoal(os.Stdout, goal)
}

// build is what one HNSW build measured.
type build struct {
	took   time.Duration
	http   []time.Duration // GET /search, one client
	recall recall          // at the configured ef_search
}

// summarize prints the spread of the builds and makes the bench row (the
// first build's GET /search, with the recall spread) and issue 37's goal:
// recall@10 at least 0.95 at p95 under 30 ms on every build.
func summarize(n, ef int, builds []build) (loadkit.Row, loadkit.Goal) {
	var took, p95 []float64
	var strict, tied []float64
	for _, b := range builds {
		took = append(took, b.took.Seconds())
		p95 = append(p95, pct(b.http, 95))
		strict, tied = append(strict, b.recall.strict), append(tied, b.recall.tied)
	}
	spread := func(xs []float64, format string) string {
		s := slices.Clone(xs)
		slices.Sort(s)
		return fmt.Sprintf("min "+format+", median "+format+", max "+format, s[0], s[len(s)/2], s[len(s)-1])
	}
	fmt.Printf("\nover %d builds at ef_search %d (%s):\n  build time s: %s\n  GET /search p95 ms: %s\n  recall@10 strict: %s\n  recall@10 tie-aware: %s\n",
		len(builds), ef, loadAvg(), spread(took, "%.0f"), spread(p95, "%.1f"), spread(strict, "%.3f"), spread(tied, "%.3f"))
	// One client, so the first build's requests' own time is the window.
	var window time.Duration
	for _, d := range builds[0].http {
		window += d
	}
	row := loadkit.NewRow(fmt.Sprintf("`GET /search?kinds=question`, hybrid over %dk questions, 1 client", n/1000),
		builds[0].http, window, 0)
	row.Limit = fmt.Sprintf("recall@10 against an exact scan at ef_search %d: %.3f (%.3f counting ties); over %d builds %.3f-%.3f (%.3f-%.3f)",
		ef, strict[0], tied[0], len(builds), slices.Min(strict), slices.Max(strict), slices.Min(tied), slices.Max(tied))
	goal := loadkit.Goal{
		Goal: fmt.Sprintf("Search: recall@10 ≥ 0.95 at p95 < 30 ms over %dk questions, every build", n/1000),
		Measured: fmt.Sprintf("%d builds: recall@10 %.3f-%.3f (%.3f-%.3f counting ties), GET /search p95 %.1f-%.1f ms, %s",
			len(builds), slices.Min(strict), slices.Max(strict), slices.Min(tied), slices.Max(tied), slices.Min(p95), slices.Max(p95), loadAvg()),
		Met: slices.Min(tied) >= 0.95 && slices.Max(p95) < 30,
	}
	return row, goal
}

// loadAvg is the host's load average (1, 5, 15 minutes) now: the machine
// is shared, and every figure is read beside it.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return "load average " + strings.Join(f[:3], " ")
	}
	return "load average unknown"
}

// load inserts n questions with their vectors in batches, with the index's
// own HNSW and GIN indexes dropped during the load and the GIN ones
// rebuilt afterwards from their stored definitions (a bulk load is how a
// large bank arrives). It returns the HNSW index's definition, for
// buildHNSW.
func load(ctx context.Context, h *harness.Harness, probe search.Probe, n int) (hnsw string, err error) {
	conn := h.App.DB.Conn(ctx)
	var idx []struct{ Indexname, Indexdef string }
	if err := conn.Raw(`SELECT indexname, indexdef FROM pg_indexes
		WHERE schemaname = 'search' AND tablename = 'documents' AND indexname LIKE 'documents_question_%'`).
		Scan(&idx).Error; err != nil {
		return "", err
	}
	var defs []string
	for _, ix := range idx {
		if err := conn.Exec(`DROP INDEX search.` + ix.Indexname).Error; err != nil {
			return "", err
		}
		if strings.Contains(ix.Indexdef, "USING hnsw") {
			hnsw = ix.Indexdef
		} else {
			defs = append(defs, ix.Indexdef)
		}
	}
	if hnsw == "" {
		return "", fmt.Errorf("no HNSW index on the questions")
	}
	const batch = 1000
	type row struct {
		ID    int64   `json:"id"`
		Title string  `json:"title"`
		Body  string  `json:"body"`
		Emb   *string `json:"emb"`
	}
	type chunk []row
	work := make(chan int)
	out := make(chan chunk)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for from := range work {
				r := rand.New(rand.NewPCG(uint64(from), 3))
				var c chunk
				for id := from; id < min(from+batch, n); id++ {
					t := stem(r)
					v := probe.Embed(t)
					var s *string
					if v != nil {
						str := pgvector.NewVector(v).String()
						s = &str
					}
					c = append(c, row{ID: int64(id + 1), Title: t, Body: options(r), Emb: s})
				}
				out <- c
			}
		}()
	}
	go func() {
		for from := 0; from < n; from += batch {
			work <- from
		}
		close(work)
		wg.Wait()
		close(out)
	}()
	for c := range out {
		batch, err := json.Marshal(c)
		if err != nil {
			return "", err
		}
		if err := conn.Exec(`INSERT INTO search.documents (kind, id, version, live, title, body,
				content_hash, embedding, embedding_model, embedded_hash, embedded_at)
			SELECT 'question', id, 1, true, title, body, 'bench', emb::vector, ?, 'bench', now()
			FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, title text, body text, emb text)`,
			search.LocalModel, string(batch)).Error; err != nil {
			return "", err
		}
	}
	fmt.Fprintf(os.Stderr, "rows loaded; building %d text indexes\n", len(defs))
	for _, def := range defs {
		t, err := buildIndex(ctx, h, def)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(os.Stderr, "  %s (%s)\n", strings.SplitN(def, " ON ", 2)[0], t.Round(time.Second))
	}
	return hnsw, conn.Exec(`ANALYZE search.documents`).Error
}

// buildHNSW drops the questions' HNSW index, if built, and builds it by def.
func buildHNSW(ctx context.Context, h *harness.Harness, def string) (time.Duration, error) {
	if err := h.App.DB.Conn(ctx).Exec(`DROP INDEX IF EXISTS search.` + indexName(def)).Error; err != nil {
		return 0, err
	}
	return buildIndex(ctx, h, def)
}

// buildIndex runs the CREATE INDEX def with the memory a bulk build wants
// and one parallel worker (the host's other core serves everyone else).
func buildIndex(ctx context.Context, h *harness.Harness, def string) (time.Duration, error) {
	t := time.Now()
	err := h.App.DB.Tx(ctx, func(ctx context.Context) error {
		tx := h.App.DB.Conn(ctx)
		for _, stmt := range []string{`SET LOCAL maintenance_work_mem = '2GB'`, `SET LOCAL max_parallel_maintenance_workers = 1`, def} {
			if err := tx.Exec(stmt).Error; err != nil {
				return err
			}
		}
		return nil
	})
	return time.Since(t), err
}

// indexSize is the size on disk of the index def defines.
func indexSize(ctx context.Context, h *harness.Harness, def string) string {
	var size string
	err := h.App.DB.Conn(ctx).Raw(`SELECT pg_size_pretty(pg_relation_size(?::regclass))`, "search."+indexName(def)).Scan(&size).Error
	if err != nil {
		return "size unknown: " + err.Error()
	}
	return size + " on disk"
}

// indexName is the name of the index def creates.
func indexName(def string) string { return strings.Fields(def)[2] }

// hnswParams finds the WITH (...) of an index definition.
var hnswParams = regexp.MustCompile(`\s+WITH \([^)]*\)`)

// withParams is the HNSW definition def built with params instead of its
// own (none: def as it is).
func withParams(def, params string) string {
	params = strings.TrimSpace(params)
	if params == "" {
		return def
	}
	def = hnswParams.ReplaceAllString(def, "")
	return strings.Replace(def, " (embedding vector_cosine_ops)", " (embedding vector_cosine_ops) WITH ("+params+")", 1)
}

// measure runs every query once as warm-up, then again timed, spread over
// the given number of clients.
func measure(qs []string, clients int, fn func(string) error) ([]time.Duration, error) {
	for _, q := range qs[:min(30, len(qs))] {
		if err := fn(q); err != nil {
			return nil, err
		}
	}
	lat, _, firstErr := loadkit.Spread(clients, qs, fn)
	return lat, firstErr
}

func pct(lat []time.Duration, p float64) float64 {
	s := append([]time.Duration(nil), lat...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(float64(len(s)-1) * p / 100)
	return float64(s[i].Microseconds()) / 1000
}

// truth is one query's exact top 10, the ground truth of recall.
type truth struct {
	vq    search.VectorQuery
	want  map[int64]bool
	tenth float64 // the 10th's similarity
}

// exactTop10 scans for the exact top 10 of each query once: it does not
// depend on the index.
func exactTop10(ctx context.Context, probe search.Probe, qs []string) ([]truth, error) {
	var truths []truth
	for _, q := range qs {
		v := probe.Embed(q)
		if v == nil {
			continue
		}
		vq := search.VectorQuery{Kind: string(search.KindQuestion), Vector: v, Model: search.LocalModel, Limit: 10, MinSimilarity: -1}
		exact, err := probe.ExactVector(ctx, vq)
		if err != nil {
			return nil, err
		}
		want := map[int64]bool{}
		for _, e := range exact {
			want[e.ID] = true
		}
		truths = append(truths, truth{vq, want, exact[len(exact)-1].Score})
	}
	return truths, nil
}

// recall is recall@10 over the queries: strict counts ids; tie-aware also
// accepts an item exactly as close as the exact 10th (templated texts
// produce many equal distances, and which of the tied items is "the" 10th
// is arbitrary).
type recall struct{ strict, tied float64 }

// recallAt10 compares the index's top 10 with the exact top 10 per query,
// at ef_search ef and a few others, and returns it at ef.
func recallAt10(ctx context.Context, probe search.Probe, truths []truth, ef int) (recall, error) {
	efs := []int{ef}
	for _, e := range []int{100, 200, 400} {
		if e != ef {
			efs = append(efs, e)
		}
	}
	var at recall
	for _, e := range efs {
		var strict, tied float64
		for _, p := range truths {
			p.vq.EfSearch = e
			approx, err := probe.Vector(ctx, p.vq)
			if err != nil {
				return recall{}, err
			}
			var s, t int
			for _, a := range approx {
				if p.want[a.ID] {
					s++
				}
				if p.want[a.ID] || a.Score >= p.tenth-1e-6 {
					t++
				}
			}
			strict += float64(s) / float64(len(p.want))
			tied += float64(min(t, len(p.want))) / float64(len(p.want))
		}
		counted := float64(len(truths))
		fmt.Printf("recall@10, ef_search %4d: strict %.4f, tie-aware %.4f (%d queries)\n",
			e, strict/counted, tied/counted, len(truths))
		if e == ef {
			at = recall{strict / counted, tied / counted}
		}
	}
	return at, nil
}
