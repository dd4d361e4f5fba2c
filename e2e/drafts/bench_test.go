package drafts_test

// Measurements (not run by `go test` without -bench):
//
//	go test ./e2e/drafts/ -run '^$' -bench . -benchtime 3x
//
// BenchmarkPipeline100Pages drives a 100-page, 800-question paper through
// the real app over HTTP (upload, process_pdf, a section over every page,
// the built-in extraction) and reports each phase's time and the process's
// peak heap. BenchmarkUpload40MiB uploads a 40 MiB PDF to show the upload
// streams to disk instead of holding the file in memory.

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/memstat"
)

func benchHarness(b *testing.B, opts ...harness.Option) *harness.Harness {
	opts = append(opts, harness.WithConfig(func(c *config.Config) { c.Set("drafts.max_upload_size", 64<<20) }))
	hh, err := harness.Start(opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = hh.Stop() })
	return hh
}

// must reads a response with the status it must have into T, a contract type.
func must[T any](b *testing.B, r *harness.Response, status int) T {
	if r.Status != status {
		b.Fatalf("%s %s: %d %s", r.Method, r.Path, r.Status, r.Body)
	}
	return harness.Body[T](r)
}

// awaitReady polls a document's status until it is ready.
func awaitReady(b *testing.B, hh *harness.Harness, mod *harness.User, id int64) {
	poll(b, func() bool {
		st := must[contract.StatusResponse](b, mod.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/status", id)), 200)
		return st.Status == contract.StatusResponseStatusReady
	})
}

func poll(b *testing.B, fn func() bool) {
	deadline := time.Now().Add(5 * time.Minute)
	for !fn() {
		if time.Now().After(deadline) {
			b.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func BenchmarkPipeline100Pages(b *testing.B) {
	hh := benchHarness(b)
	mod := hh.NewUser(auth.RoleModerator)
	paper := pdffixtures.LargePaper(100)
	var processing, extracting time.Duration
	var peak uint64
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := memstat.HeapPeak()
		start := time.Now()
		body, ct := harness.Form("file", "paper.pdf", paper, nil)
		doc := must[contract.DocumentResponse](b, mod.Client(hh).With("Content-Type", ct).Post("/api/v1/documents/upload", body), 201)
		awaitReady(b, hh, mod, doc.Id)
		processing += time.Since(start)

		start = time.Now()
		sec := must[contract.SectionResponse](b, mod.Client(hh).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc.Id),
			contract.CreateSectionInBody{Name: "All", StartPage: 1, EndPage: 100}), 201)
		job := must[contract.JobStarted](b, mod.Client(hh).Post("/api/v1/drafts/extract", contract.ExtractInBody{SectionId: sec.Id}), 202)
		var drafts int64
		poll(b, func() bool {
			j := must[contract.JobResponse](b, mod.Client(hh).Get("/api/v1/quizzes/job/"+job.JobId), 200)
			if j.Status == contract.JobResponseStatusFailed {
				b.Fatalf("extraction failed: %s", asJSON(j.Error))
			}
			drafts = j.Drafts
			return j.Status == contract.JobResponseStatusCompleted
		})
		extracting += time.Since(start)
		if drafts != 800 {
			b.Fatalf("extracted %v drafts, want 800", drafts)
		}
		if p := stop(); p > peak {
			peak = p
		}
	}
	b.ReportMetric(float64(processing.Milliseconds())/float64(b.N), "ms-upload+process/op")
	b.ReportMetric(float64(extracting.Milliseconds())/float64(b.N), "ms-extract/op")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
	b.ReportMetric(float64(len(paper))/1024, "KiB-pdf")
}

// BenchmarkUpload40MiB uploads a 40 MiB PDF that is mostly padding (the
// file's bytes are streamed and stored; the parser reads little of it).
func BenchmarkUpload40MiB(b *testing.B) { benchUpload(b, pdffixtures.Sized(40<<20)) }

// BenchmarkUpload40MiBDense uploads a 40 MiB PDF of 100 pages whose content
// streams fill the file, so validation parses every object.
func BenchmarkUpload40MiBDense(b *testing.B) { benchUpload(b, pdffixtures.Dense(100, 40<<20)) }

// benchUpload measures the upload request alone: the app serves HTTP but
// runs no worker, so process_pdf does not overlap the measurement.
func benchUpload(b *testing.B, file []byte) {
	hh := benchHarness(b, harness.WithRole(app.RoleServe))
	mod := hh.NewUser(auth.RoleModerator)
	body, ct := harness.Form("file", "paper.pdf", file, nil)
	size := len(file)
	file = nil
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := memstat.HeapPeak()
		req, _ := http.NewRequest(http.MethodPost, hh.BaseURL+"/api/v1/documents/upload", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+mod.Token)
		res, err := hh.HTTP.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 201 {
			b.Fatalf("upload: %d", res.StatusCode)
		}
		if p := stop(); p > peak {
			peak = p
		}
	}
	// The client holds the request body (the file) itself; what the server
	// adds on top is peak minus the heap before.
	b.ReportMetric(float64(size)/(1<<20), "MiB-file")
	b.ReportMetric(float64(base.HeapInuse)/(1<<20), "MiB-heap-before")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
}

// BenchmarkProcess40MiBDense measures process_pdf on the dense 40 MiB file:
// every page's content stream is interpreted glyph by glyph.
func BenchmarkProcess40MiBDense(b *testing.B) {
	hh := benchHarness(b)
	mod := hh.NewUser(auth.RoleModerator)
	body, ct := harness.Form("file", "paper.pdf", pdffixtures.Dense(100, 40<<20), nil)
	runtime.GC()
	var peak uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := memstat.HeapPeak()
		doc := must[contract.DocumentResponse](b, mod.Client(hh).With("Content-Type", ct).Post("/api/v1/documents/upload", body), 201)
		awaitReady(b, hh, mod, doc.Id)
		if p := stop(); p > peak {
			peak = p
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
}
