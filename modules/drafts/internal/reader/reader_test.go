package reader

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
)

// The test binary is the child too, as `rounds pdf` is in production.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == "pdf" {
		os.Exit(Main(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// limits are the configuration defaults (modules/drafts/config.yaml).
var limits = Limits{
	Inflate:        pdfdoc.Limits{MaxStreamBytes: 8 << 20, MaxDocumentBytes: 256 << 20},
	InspectTimeout: 30 * time.Second, PageTimeout: 10 * time.Second,
	OCRTimeout: 60 * time.Second, OCRLanguage: "eng",
	Memory: 1 << 30, CPU: 2 * time.Minute,
}

func runner(t *testing.T, l Limits) *Runner {
	t.Helper()
	r, err := NewRunner(t.TempDir(), l)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// read runs a child over file and returns its pages' text, and whether
// it repaired the file first.
func read(t *testing.T, r *Runner, file []byte, req Request) (pages []string, repaired bool, err error) {
	t.Helper()
	req.Path = filepath.Join(t.TempDir(), "in.pdf")
	if err := os.WriteFile(req.Path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	err = r.Read(context.Background(), req, func(e Event) error {
		switch e.Kind {
		case EventOpened:
			pages, repaired = make([]string, e.Pages), e.Repaired
		case EventPage:
			pages[e.Page-1] = e.Text
		}
		return nil
	})
	return pages, repaired, err
}

var firstPage = strings.Join(pdffixtures.FirstPage, "\n")

func TestEveryTextFilterIsRead(t *testing.T) {
	r := runner(t, limits)
	for _, name := range pdffixtures.Filters {
		t.Run(name, func(t *testing.T) {
			file, err := pdffixtures.Filtered(name)
			if err != nil {
				t.Fatal(err)
			}
			pages, _, err := read(t, r, file, Request{})
			if err != nil || len(pages) != 1 || pages[0] != firstPage {
				t.Fatalf("pages = %q, err = %v; want the first page", pages, err)
			}
		})
	}
}

func TestImageOnlyFiltersAreSkippedNotFatal(t *testing.T) {
	pages, _, err := read(t, runner(t, limits), pdffixtures.WithImages(), Request{})
	if err != nil || len(pages) != 1 || pages[0] != firstPage {
		t.Fatalf("pages = %q, err = %v; want the first page's text beside its pictures", pages, err)
	}
}

func TestEncryptionWithAnEmptyUserPasswordOpens(t *testing.T) {
	r := runner(t, limits)
	for _, cipher := range pdffixtures.Ciphers {
		t.Run(cipher, func(t *testing.T) {
			file, err := pdffixtures.EncryptedOpen(cipher)
			if err != nil {
				t.Fatal(err)
			}
			pages, _, err := read(t, r, file, Request{})
			if err != nil || len(pages) != len(pdffixtures.PaperPages) || pages[0] != firstPage {
				t.Fatalf("pages = %q, err = %v; want the paper", pages, err)
			}
		})
	}
}

func TestAUserPasswordIsRefusedSayingSo(t *testing.T) {
	r := runner(t, limits)
	for _, cipher := range pdffixtures.Ciphers {
		t.Run(cipher, func(t *testing.T) {
			file, err := pdffixtures.EncryptedLocked(cipher)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = read(t, r, file, Request{})
			if !errors.Is(err, pdfdoc.ErrNeedsPassword) || !strings.Contains(err.Error(), "needs a password") {
				t.Fatalf("err = %v, want ErrNeedsPassword", err)
			}
		})
	}
}

func TestDamagedCrossReferencesAreRebuilt(t *testing.T) {
	r := runner(t, limits)
	for _, kind := range pdffixtures.Damages {
		t.Run(kind, func(t *testing.T) {
			pages, repaired, err := read(t, r, pdffixtures.Damaged(kind), Request{})
			if err != nil || len(pages) == 0 || pages[0] != firstPage || !repaired {
				t.Fatalf("pages = %q, repaired = %v, err = %v; want the first page after a repair", pages, repaired, err)
			}
		})
	}
}

func TestInspectCountsPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "paper.pdf")
	if err := os.WriteFile(path, pdffixtures.Damaged("wrong offsets"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := runner(t, limits).Inspect(context.Background(), path); err != nil || n != len(pdffixtures.PaperPages) {
		t.Fatalf("pages = %d, err = %v", n, err)
	}
}

// A child that outgrows its memory is stopped by its own rlimit, and the
// parent says why. The inflation bound is lifted so that the file gets
// Under its address-space limit a child may die making a thread rather
// than allocating: cgo's pthread_create or the runtime's newosproc fails,
// then the process aborts with a register dump. That is the memory limit
// too, and is named so (seen once under load, so told by its words here).
func TestAThreadTheLimitCannotMapIsTheMemoryLimit(t *testing.T) {
	l := Limits{Memory: 96 << 20}
	for _, stderr := range []string{
		"runtime/cgo: pthread_create failed: Resource temporarily unavailable\nSIGABRT: abort\nPC=0x4721e1 m=3 sigcode=18446744073709551610\n...\ngs     0x0",
		"runtime: failed to create new OS thread (have 7 already; errno=11)\nruntime: may need to increase max user processes (ulimit -u)\nfatal error: newosproc",
	} {
		err := stopped(l, nil, errors.New("exit status 2"), stderr)
		if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "needed more than 96.0 MiB of memory (drafts.reader_memory)") {
			t.Errorf("stderr %q: err = %v, want the memory limit named", stderr, err)
		}
	}
}

// past the reader's own checks, as an unknown weakness would.
func TestAChildOverItsMemoryFailsWithAReason(t *testing.T) {
	l := limits
	l.Inflate = pdfdoc.Limits{MaxStreamBytes: 4 << 30, MaxDocumentBytes: 8 << 30}
	l.Memory = 96 << 20
	_, _, err := read(t, runner(t, l), pdffixtures.DeflateBomb(512), Request{})
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "needed more than 96.0 MiB of memory (drafts.reader_memory)") {
		t.Fatalf("err = %v, want the memory limit named", err)
	}
}

func TestAChildOverItsProcessorTimeFailsWithAReason(t *testing.T) {
	l := limits
	l.Inflate = pdfdoc.Limits{MaxStreamBytes: 4 << 30, MaxDocumentBytes: 8 << 30}
	l.CPU = time.Second
	// Only the CPU limit may stop it: a busy machine stretches the second
	// of processor time over many seconds of wall time.
	l.PageTimeout, l.InspectTimeout = time.Hour, time.Hour
	_, _, err := read(t, runner(t, l), pdffixtures.DeflateBomb(512), Request{})
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "more than 1s of processor time (drafts.reader_cpu)") {
		t.Fatalf("err = %v, want the CPU limit named", err)
	}
}

// A child that stops answering is killed at the deadline of its step,
// with everything it started.
func TestASilentChildIsKilledAtItsDeadline(t *testing.T) {
	l := limits
	l.InspectTimeout = 100 * time.Millisecond
	r := runner(t, l)
	r.Command = []string{"/bin/sh", "-c", "sleep 60 & sleep 60"}
	start := time.Now()
	_, err := r.Inspect(context.Background(), "/nonexistent.pdf")
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "opening it took longer than") {
		t.Fatalf("err = %v, want the deadline named", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("killed after %v", d)
	}
}

func TestACrashedChildIsReported(t *testing.T) {
	r := runner(t, limits)
	r.Command = []string{"/bin/sh", "-c", "printf 'fatal error: something broke\\n\\ngoroutine 1 [running]:\\nrax 0x0\\ngs 0x0\\n' >&2; exit 2"}
	_, err := r.Inspect(context.Background(), "/nonexistent.pdf")
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "something broke") {
		t.Fatalf("err = %v", err)
	}
}

// scannedQuestion is what the scanned fixture shows.
var scannedQuestion = []string{
	"1. Which chamber pumps blood into the aorta?",
	"A. Left ventricle",
	"B. Right atrium",
	"Answer: A",
}

func TestAPageWithoutTextIsReadByOCR(t *testing.T) {
	if err := Available(); err != nil {
		t.Fatal(err) // the test path installs poppler-utils and tesseract-ocr
	}
	file, err := pdffixtures.Scanned(scannedQuestion)
	if err != nil {
		t.Fatal(err)
	}
	r := runner(t, limits)
	pages, _, err := read(t, r, file, Request{OCR: OCROff})
	if err != nil || len(pages) != 1 || pages[0] != "" {
		t.Fatalf("without OCR: pages = %q, err = %v; want one page without text", pages, err)
	}
	pages, _, err = read(t, r, file, Request{OCR: OCRAuto})
	if err != nil || len(pages) != 1 || pages[0] != strings.Join(scannedQuestion, "\n") {
		t.Fatalf("with OCR: pages = %q, err = %v", pages, err)
	}
}
