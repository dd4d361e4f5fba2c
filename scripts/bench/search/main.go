// Command bench measures the search index at scale: it boots the real app on
// a fresh database, loads N synthetic questions (vectors from the local
// embedder), rebuilds the indexes as the migration defines them, then
// reports latency percentiles of hybrid search (through the facade and
// through GET /search), of typeahead, and the recall@10 of the HNSW index
// against an exact scan. Its last line is GET /search's bench-table row with
// the recall at the configured ef_search (loadkit.EmitRow), which
// `go tool task bench` merges into its table.
//
//	go run ./scripts/bench/search -n 100000 -queries 300
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
	"runtime"
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
	n := flag.Int("n", 100_000, "questions to load")
	queries := flag.Int("queries", 300, "measured queries per scenario")
	concurrency := flag.Int("concurrency", 4, "clients in the concurrent scenario")
	flag.Parse()
	if err := run(*n, *queries, *concurrency); err != nil {
		log.Fatal(err)
	}
}

func run(n, queries, concurrency int) error {
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
		n, cfg.EmbeddingDims, cfg.HNSWEfSearch, runtime.NumCPU())

	start := time.Now()
	if err := load(ctx, h, probe, n); err != nil {
		return err
	}
	fmt.Printf("loaded and indexed in %s\n\n", time.Since(start).Round(time.Second))

	r := rand.New(rand.NewPCG(7, 11))
	qs := make([]string, queries)
	for i := range qs {
		qs[i] = query(r)
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
	var throughHTTP []time.Duration
	for _, sc := range []struct {
		name    string
		fn      func(string) error
		clients int
	}{
		{"keyword ranker alone (60)", keywordOnly, 1},
		{"vector ranker alone (60)", vectorOnly, 1},
		{"hybrid (facade, rerank unset)", hybrid, 1},
		{"GET /search?kinds=question", global, 1},
		{"GET /search/suggest", suggest, 1},
		{fmt.Sprintf("hybrid (facade), %d clients", concurrency), hybrid, concurrency},
	} {
		lat, err := measure(qs, sc.clients, sc.fn)
		if err != nil {
			return err
		}
		if sc.name == "GET /search?kinds=question" {
			throughHTTP = lat
		}
		fmt.Printf("%-36s p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  max %6.1f ms\n", sc.name,
			pct(lat, 50), pct(lat, 95), pct(lat, 99), pct(lat, 100))
	}

	fmt.Println()
	strict, tied, err := recallAt10(ctx, probe, qs, cfg)
	if err != nil {
		return err
	}
	// One client, so the requests' own time is the window.
	var window time.Duration
	for _, d := range throughHTTP {
		window += d
	}
	row := loadkit.NewRow(fmt.Sprintf("`GET /search?kinds=question`, hybrid over %dk questions, 1 client", n/1000),
		throughHTTP, window, 0)
	row.Limit = fmt.Sprintf("recall@10 against an exact scan at ef_search %d: %.3f (%.3f counting ties)",
		cfg.HNSWEfSearch, strict, tied)
	return loadkit.EmitRow(os.Stdout, row)
}

// load inserts n questions with their vectors in batches, with the index's
// own HNSW and GIN indexes dropped during the load and rebuilt afterwards
// from their stored definitions (a bulk load is how a large bank arrives).
func load(ctx context.Context, h *harness.Harness, probe search.Probe, n int) error {
	conn := h.App.DB.Conn(ctx)
	var idx []struct{ Indexname, Indexdef string }
	if err := conn.Raw(`SELECT indexname, indexdef FROM pg_indexes
		WHERE schemaname = 'search' AND tablename = 'documents' AND indexname LIKE 'documents_question_%'`).
		Scan(&idx).Error; err != nil {
		return err
	}
	var defs []string
	for _, ix := range idx {
		if err := conn.Exec(`DROP INDEX search.` + ix.Indexname).Error; err != nil {
			return err
		}
		defs = append(defs, ix.Indexdef)
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
			return err
		}
		if err := conn.Exec(`INSERT INTO search.documents (kind, id, version, live, title, body,
				content_hash, embedding, embedding_model, embedded_hash, embedded_at)
			SELECT 'question', id, 1, true, title, body, 'bench', emb::vector, ?, 'bench', now()
			FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, title text, body text, emb text)`,
			search.LocalModel, string(batch)).Error; err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "rows loaded; building %d indexes\n", len(defs))
	err := h.App.DB.Tx(ctx, func(ctx context.Context) error {
		tx := h.App.DB.Conn(ctx)
		for _, stmt := range []string{`SET LOCAL maintenance_work_mem = '2GB'`, `SET LOCAL max_parallel_maintenance_workers = 1`} {
			if err := tx.Exec(stmt).Error; err != nil {
				return err
			}
		}
		for _, def := range defs {
			t := time.Now()
			if err := tx.Exec(def).Error; err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "  %s (%s)\n", strings.SplitN(def, " ON ", 2)[0], time.Since(t).Round(time.Second))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return conn.Exec(`ANALYZE search.documents`).Error
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

// recallAt10 compares the index's top 10 with the exact top 10 per query,
// at the configured ef_search and a few others. Strict recall counts ids;
// tie-aware recall also accepts an item exactly as close as the exact 10th
// (templated texts produce many equal distances, and which of the tied
// items is "the" 10th is arbitrary). It returns both at the configured
// ef_search.
func recallAt10(ctx context.Context, probe search.Probe, qs []string, cfg search.Config) (strictAt, tiedAt float64, err error) {
	efs := []int{cfg.HNSWEfSearch}
	for _, ef := range []int{100, 200, 400} {
		if ef != cfg.HNSWEfSearch {
			efs = append(efs, ef)
		}
	}
	// The exact top 10 does not depend on ef_search: scan once per query.
	type truth struct {
		vq    search.VectorQuery
		want  map[int64]bool
		tenth float64
	}
	var truths []truth
	for _, q := range qs {
		v := probe.Embed(q)
		if v == nil {
			continue
		}
		vq := search.VectorQuery{Kind: string(search.KindQuestion), Vector: v, Model: search.LocalModel, Limit: 10, MinSimilarity: -1}
		exact, err := probe.ExactVector(ctx, vq)
		if err != nil {
			return 0, 0, err
		}
		want := map[int64]bool{}
		for _, e := range exact {
			want[e.ID] = true
		}
		truths = append(truths, truth{vq, want, exact[len(exact)-1].Score})
	}
	for _, ef := range efs {
		var strict, tied float64
		for _, p := range truths {
			p.vq.EfSearch = ef
			approx, err := probe.Vector(ctx, p.vq)
			if err != nil {
				return 0, 0, err
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
			ef, strict/counted, tied/counted, len(truths))
		if ef == cfg.HNSWEfSearch {
			strictAt, tiedAt = strict/counted, tied/counted
		}
	}
	return strictAt, tiedAt, nil
}
