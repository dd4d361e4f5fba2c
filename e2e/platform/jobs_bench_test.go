package platform_test

// Job throughput (not run by `go test` without -bench):
//
//	go test ./e2e/platform/ -run '^$' -bench Jobs -benchtime 3x
//
// BenchmarkJobsNoop queues jobs of a kind that does nothing, each in its
// own transaction as a request would, while the app's workers (the
// deployment's jobs.concurrency) run them: jobs/s is the queue's own
// overhead. BenchmarkJobsExtract asks for extractions of a 10-page paper
// (80 questions, the built-in extractor) over HTTP as a moderator would
// and waits until every batch is stored.

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/jobs"
)

// benchJobs is the deployment's job settings on a test harness (whose own
// polling is faster than production's).
func benchJobs(b *testing.B, opts ...harness.Option) *harness.Harness {
	opts = append(opts, harness.WithConfig(func(c *config.Config) {
		def, err := config.Read()
		if err != nil {
			b.Fatal(err)
		}
		c.Jobs = def.Jobs
	}))
	hh, err := harness.Start(opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = hh.Stop() })
	return hh
}

func waitFor(b *testing.B, done func() bool) {
	deadline := time.Now().Add(5 * time.Minute)
	for !done() {
		if time.Now().After(deadline) {
			b.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noop is a bench.noop job, which does nothing.
type noop struct{}

func (noop) Kind() string { return "bench.noop" }

func BenchmarkJobsNoop(b *testing.B) {
	const n = 1000
	var ran atomic.Int64
	hh := benchJobs(b, harness.BeforeStart(func(a *app.App) {
		jobs.Register(a.Runner, jobs.Kind[noop]{Timeout: time.Minute, Handle: func(context.Context, *jobs.Run[noop]) (any, error) {
			ran.Add(1)
			return nil, nil
		}})
	}))
	ctx := context.Background()
	var queued, total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ran.Store(0)
		start := time.Now()
		for range n {
			if _, err := hh.App.Queue.Enqueue(ctx, nil, noop{}); err != nil {
				b.Fatal(err)
			}
		}
		queued += time.Since(start)
		waitFor(b, func() bool { return ran.Load() >= n })
		total += time.Since(start)
	}
	b.ReportMetric(float64(n*b.N)/queued.Seconds(), "queued/s")
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "jobs/s")
}

func BenchmarkJobsExtract(b *testing.B) {
	const n = 50
	hh := benchJobs(b)
	mod := hh.NewUser(auth.RoleModerator)
	body, ct := harness.Form("file", "paper.pdf", pdffixtures.LargePaper(10), nil)
	res := mod.Client(hh).With("Content-Type", ct).Post("/api/v1/documents/upload", body)
	if res.Status != 201 {
		b.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	doc := int64(res.Map()["id"].(float64))
	waitFor(b, func() bool {
		return mod.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/status", doc)).Map()["status"] == "ready"
	})
	res = mod.Client(hh).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc),
		map[string]any{"name": "All", "start_page": 1, "end_page": 10})
	if res.Status != 201 {
		b.Fatalf("section: %d %s", res.Status, res.Body)
	}
	section := int64(res.Map()["id"].(float64))
	batches := func() int {
		var c int
		if err := hh.App.DB.Conn(context.Background()).
			Raw(`SELECT count(*) FROM drafts.batches WHERE section_id = ?`, section).Scan(&c).Error; err != nil {
			b.Fatal(err)
		}
		return c
	}
	var queued, total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := batches()
		start := time.Now()
		for range n {
			if r := mod.Client(hh).Post("/api/v1/drafts/extract", map[string]any{"section_id": section}); r.Status != 202 {
				b.Fatalf("extract: %d %s", r.Status, r.Body)
			}
		}
		queued += time.Since(start)
		waitFor(b, func() bool { return batches() >= before+n })
		total += time.Since(start)
	}
	b.ReportMetric(float64(n*b.N)/queued.Seconds(), "queued/s")
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "jobs/s")
}
