package pdfdoc

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
)

// BenchmarkPageText100 reads every page of the 100-page, 800-question paper
// within the default bounds (each stream is measured before it is parsed).
func BenchmarkPageText100(b *testing.B) { benchRead(b, pdffixtures.LargePaper(100)) }

// BenchmarkPageTextDense40MiB reads every page of a 40 MiB text-dense PDF.
func BenchmarkPageTextDense40MiB(b *testing.B) { benchRead(b, pdffixtures.Dense(100, 40<<20)) }

func benchRead(b *testing.B, file []byte) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	peak := uint64(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), bounds)
		if err != nil {
			b.Fatal(err)
		}
		for p := 1; p <= r.NumPages(); p++ {
			if _, err := r.ReadPage(context.Background(), p); err != nil {
				b.Fatal(err)
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}
	b.ReportMetric(float64(peak-base)/(1<<20), "MiB-peak-heap-above-file")
}
