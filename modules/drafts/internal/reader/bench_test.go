package reader

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
)

// corpusDir is shared/corpus/pdf beside the checkout.
const corpusDir = "../../../../../shared/corpus/pdf"

// BenchmarkCorpusText reads every page of the pdf.js corpus as processing
// does, one reader child per file, text layer only.
func BenchmarkCorpusText(b *testing.B) { benchCorpus(b, OCROff) }

// BenchmarkCorpusWithOCR is the same with scanned-looking pages OCR'd,
// as processing does by default.
func BenchmarkCorpusWithOCR(b *testing.B) { benchCorpus(b, OCRAuto) }

// benchCorpus reports pages a second (wall time, children started
// included) and the peak resident set of the largest child (its own
// pdftoppm and tesseract included, from getrusage(RUSAGE_CHILDREN)).
func benchCorpus(b *testing.B, ocr string) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		b.Skipf("the corpus folder %s is absent", corpusDir)
	}
	r, err := NewRunner(b.TempDir(), limits)
	if err != nil {
		b.Fatal(err)
	}
	measure(b, func(count func(Event) error) {
		for _, f := range files {
			if err := r.Read(context.Background(), Request{Path: f, OCR: ocr}, count); err != nil {
				b.Fatalf("%s: %v", filepath.Base(f), err)
			}
		}
	})
}

// measure runs read b.N times, counting the pages it is sent, and reports
// pages a second and the largest child's peak resident set.
func measure(b *testing.B, read func(count func(Event) error)) {
	pages := 0
	count := func(e Event) error {
		if e.Kind == EventPage {
			pages++
		}
		return nil
	}
	start := time.Now()
	for b.Loop() {
		read(count)
	}
	b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "MiB-peak-child-rss")
	}
}

// BenchmarkPaper100 reads the 100-page, 800-question paper in one child.
func BenchmarkPaper100(b *testing.B) { benchFile(b, pdffixtures.LargePaper(100)) }

// BenchmarkDense40MiB reads a 40 MiB text-dense PDF of 100 pages in one child.
func BenchmarkDense40MiB(b *testing.B) { benchFile(b, pdffixtures.Dense(100, 40<<20)) }

func benchFile(b *testing.B, file []byte) {
	path := filepath.Join(b.TempDir(), "in.pdf")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		b.Fatal(err)
	}
	r, err := NewRunner(b.TempDir(), limits)
	if err != nil {
		b.Fatal(err)
	}
	measure(b, func(count func(Event) error) {
		if err := r.Read(context.Background(), Request{Path: path, OCR: OCRAuto}, count); err != nil {
			b.Fatal(err)
		}
	})
}
