package interchange_test

// Measurement (not run by `go test` without -bench):
//
//	go test ./e2e/interchange/ -run '^$' -bench ExportApkg -benchtime 3x
//
// BenchmarkExportApkg20k imports a deck of 20,000 basic notes (2 KB of
// text each, 40 MB in all) and exports it as an .apkg over HTTP, reading
// the response as a stream, and reports the package's size, the
// process's peak Go heap during the export and its peak resident memory
// (VmHWM, reset before each export through /proc/self/clear_refs; it
// counts SQLite's pages, which live outside the Go heap).

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/memstat"
)

// peakRSS is the process's resident high-water mark in bytes.
func peakRSS() uint64 {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

func BenchmarkExportApkg20k(b *testing.B) {
	hh, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = hh.Stop() })
	u := hh.NewUser(auth.RoleModerator)
	c := u.Client(hh)
	catID := int64(c.Post("/api/v1/question-categories/", map[string]any{"name": "Export bench"}).Map()["id"].(float64))
	notes := make([]ankifixtures.Note, 20000)
	for i := range notes {
		notes[i] = ankifixtures.Note{Model: ankifixtures.Basic, Ords: []int{0}, Fields: []string{
			fmt.Sprintf("Front %d: %s", i, strings.Repeat("which finding is most typical? ", 32)),
			fmt.Sprintf("Back %d: %s", i, strings.Repeat("the classic sign of the condition ", 30))}}
	}
	data, err := ankifixtures.Build(ankifixtures.Package{DeckName: "Bench", Notes: notes})
	if err != nil {
		b.Fatal(err)
	}
	imp := c.With("Content-Type", "application/octet-stream").Post(fmt.Sprintf("/api/v1/flashcard-decks/import/apkg?category_id=%d", catID), data)
	if imp.Status != 201 {
		b.Fatalf("import: %d %.300s", imp.Status, imp.Body)
	}
	deck := int64(imp.Map()["deck_id"].(float64))
	url := fmt.Sprintf("%s/api/v1/flashcard-decks/%d/export/apkg", hh.BaseURL, deck)
	var peak, rss uint64
	var size int64
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
		stop := memstat.HeapPeak()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+u.Token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		size, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if p := stop(); p > peak {
			peak = p
		}
		if r := peakRSS(); r > rss {
			rss = r
		}
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("export: %d %v", res.StatusCode, err)
		}
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB-package")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
	b.ReportMetric(float64(rss)/(1<<20), "MiB-peak-rss")
}
