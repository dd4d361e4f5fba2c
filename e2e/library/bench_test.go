package library_test

// BenchmarkLibraryReads measures the library listing and by-slug opens over
// 5,000 articles of 20 sections each (100,000 section rows of about 1,200
// characters of markdown and its HTML), through the whole app on loopback
// (HTTP, auth, grants, service, queries; a by-slug open also records the
// reader's recent list). It is not run by `go test` without -bench:
//
//	go test ./e2e/library/ -run '^$' -bench LibraryReads -benchtime 2000x
//
// Data: 5,000 articles loaded with one INSERT ... SELECT each for articles
// and sections (90% published, filed over 20 categories), every tenth with
// a former slug.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
)

const benchArticles = 5_000

type benchRequest struct {
	name string
	user *harness.User
	path func(i int) string
}

func BenchmarkLibraryReads(b *testing.B) {
	if b.N == 1 {
		return // the sizing round: loading takes longer than the whole run
	}
	ctx := context.Background()
	h, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer h.Stop()
	mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
	conn := h.App.DB.Conn(ctx)
	t0 := time.Now()
	para := "The left ventricle fails to pump enough blood for the body's needs; preload, afterload and contractility " +
		"each matter, and **treatment** follows the cause. "
	for _, sql := range []string{
		`INSERT INTO library.articles (id, title, slug, summary, category_id, status, ever_published, created_by, updated_by)
			SELECT id, 'Article ' || id, 'article-' || id, 'Summary of article ' || id, 1 + id % 20,
				CASE WHEN id % 10 = 0 THEN 'draft' ELSE 'published' END, id % 10 <> 0, 1, 1
			FROM (SELECT nextval('library.articles_id_seq') AS id FROM generate_series(1, ?)) g`,
		`INSERT INTO library.sections (article_id, key, position, heading, markdown, html)
			SELECT a.id, 'section-' || s, s, 'Section ' || s, repeat(?, 8), '<p>' || repeat(?, 8) || '</p>'
			FROM library.articles a, generate_series(0, 19) s`,
		`INSERT INTO library.slug_history (slug, article_id) SELECT 'old-' || slug, id FROM library.articles WHERE id % 10 = 1`,
		`ANALYZE library.articles`, `ANALYZE library.sections`, `ANALYZE library.slug_history`,
	} {
		var args []any
		if n := countParams(sql); n == 1 {
			args = []any{benchArticles}
		} else if n == 2 {
			args = []any{para, para}
		}
		if err := conn.Exec(sql, args...).Error; err != nil {
			b.Fatal(err)
		}
	}
	fmt.Printf("loaded %d articles x 20 sections in %s\n", benchArticles, time.Since(t0).Round(time.Millisecond))
	var ids []int64
	if err := conn.Raw(`SELECT id FROM library.articles WHERE status = 'published'`).Scan(&ids).Error; err != nil {
		b.Fatal(err)
	}
	requests := []benchRequest{
		{"list first page (learner)", learner, func(int) string { return "/articles/?limit=50" }},
		{"list page 40 (learner)", learner, func(int) string { return "/articles/?limit=50&offset=2000" }},
		{"list by category (learner)", learner, func(i int) string { return fmt.Sprintf("/articles/?category_id=%d", 1+i%20) }},
		{"list editable (moderator)", mod, func(int) string { return "/articles/?editable=true&limit=50" }},
		{"by-slug current (learner)", learner, func(int) string {
			return fmt.Sprintf("/articles/by-slug/article-%d", ids[rand.IntN(len(ids))])
		}},
		{"by-slug former (learner)", learner, func(i int) string { return fmt.Sprintf("/articles/by-slug/old-article-%d", 1+10*(i%400)) }},
	}
	client := &http.Client{Timeout: 10 * time.Second}
	call := func(r benchRequest, i int) time.Duration {
		req, _ := http.NewRequest(http.MethodGet, h.BaseURL+"/api/v1"+r.path(i), nil)
		req.Header.Set("Authorization", "Bearer "+r.user.Token)
		d, err := loadkit.TimedRequest(client, req, http.StatusOK, http.StatusNotFound)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	for _, r := range requests {
		call(r, 0)
	}
	per := map[string][]time.Duration{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := requests[i%len(requests)]
		per[r.name] = append(per[r.name], call(r, i))
	}
	b.StopTimer()
	for _, r := range requests {
		d := per[r.name]
		fmt.Printf("%-30s n=%4d p50=%6.2fms p95=%6.2fms\n", r.name, len(d), ms(pct(d, 50)), ms(pct(d, 95)))
	}
}

func countParams(sql string) int {
	n := 0
	for _, c := range sql {
		if c == '?' {
			n++
		}
	}
	return n
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(i, len(s))-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
