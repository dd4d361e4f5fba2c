package pdfdoc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
)

// bounds are the configuration defaults (modules/drafts/config.yaml).
var bounds = Limits{MaxStreamBytes: 8 << 20, MaxDocumentBytes: 256 << 20}

// cost runs fn and reports its wall time and the process's peak resident
// set while it ran (VmHWM from /proc/self/status, reset first through
// /proc/self/clear_refs), for the decisions record.
func cost(t *testing.T, name string, fn func()) {
	t.Helper()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	start := time.Now()
	fn()
	t.Logf("%s: %v, peak RSS %s", name, time.Since(start).Round(time.Millisecond), vmHWM())
}

func vmHWM() string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func TestInspectRefusesHostileStructures(t *testing.T) {
	cases := map[string]struct {
		file []byte
		why  string
	}{
		"a /Count of 2^40":            {pdffixtures.HugeCount(1 << 40), "claims 1099511627776 pages"},
		"a /Count of 200,000":         {pdffixtures.HugeCount(200_000), "claims 200000 pages"},
		"a cycle in /Kids":            {pdffixtures.CyclicKids(), "reaches object 3 twice"},
		"a node shared 40 ways deep":  {pdffixtures.SharedKids(40, 8), "claims 6553600000000 pages"},
		"a node shared 3 ways (tiny)": {pdffixtures.SharedKids(3, 2), "twice"},
		"an xref subsection at 10^9":  {pdffixtures.XrefHugeTable(), "numbers objects up to 1000000001"},
		"an xref stream /Size 10^12":  {pdffixtures.XrefStreamHugeSize(), "numbers objects up to 1000000000000"},
		"a /Prev cycle":               {pdffixtures.PrevCycle(), "chain back to one already read"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var err error
			cost(t, name, func() { _, err = inspect(ctx, bytes.NewReader(c.file), int64(len(c.file))) })
			if !errors.Is(err, ErrMalformed) || errors.Is(err, ErrTooSlow) || !strings.Contains(err.Error(), c.why) {
				t.Fatalf("err = %v, want ErrMalformed saying %q", err, c.why)
			}
		})
	}
}

func TestInspectCountsTheRealPagesNotTheClaim(t *testing.T) {
	f := pdffixtures.HugeCount(7) // two real pages, a claim within what the file could hold
	if n, err := inspect(context.Background(), bytes.NewReader(f), int64(len(f))); err != nil || n != 2 {
		t.Fatalf("pages = %d, err = %v; want the 2 real pages", n, err)
	}
}

func TestInspectStopsAtItsDeadline(t *testing.T) {
	f := pdffixtures.QuestionPaper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inspect(ctx, bytes.NewReader(f), int64(len(f))); !errors.Is(err, ErrTooSlow) {
		t.Fatalf("err = %v, want ErrTooSlow", err)
	}
}

func TestTheLibraryIsAbandonedAtTheDeadline(t *testing.T) {
	// The library follows /Prev without remembering where it has been;
	// past the structural check (which refuses this file first), only the
	// deadline the file carries would end it.
	f := pdffixtures.PrevCycle()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := pdf.NewReader(&guarded{ra: bytes.NewReader(f), ctx: ctx}, int64(len(f)))
	var s stopped
	if !errors.As(err, &s) || !errors.Is(s.err, ErrTooSlow) {
		t.Fatalf("err = %v, want the deadline's stop", err)
	}
}

func TestPageTextStopsAtItsDeadline(t *testing.T) {
	file := pdffixtures.QuestionPaper()
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), bounds)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pageText(r, ctx, 1); !errors.Is(err, ErrTooSlow) {
		t.Fatalf("err = %v, want ErrTooSlow", err)
	}
	if _, err := pageText(r, context.Background(), 1); err != nil {
		t.Fatalf("the next page with time left: %v", err)
	}
}

func TestPageTextRefusesADeflateBomb(t *testing.T) {
	file := pdffixtures.DeflateBomb(256)
	t.Logf("deflate bomb: %d bytes on disk, 256 MiB inflated", len(file))
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), bounds)
	if err != nil {
		t.Fatal(err)
	}
	cost(t, "a deflate bomb", func() { _, err = pageText(r, context.Background(), 1) })
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "max_stream_bytes") {
		t.Fatalf("err = %v, want ErrTooLarge naming max_stream_bytes", err)
	}
}

func TestPageTextCapsWhatADocumentInflatesInAll(t *testing.T) {
	content := strings.Repeat("BT ET ", 1<<17) // 768 KiB, an allowed stream
	file := pdffixtures.BuildContent([]string{content, content, content}, pdffixtures.Options{Compress: true})
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)),
		Limits{MaxStreamBytes: 1 << 20, MaxDocumentBytes: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for p := 1; p <= 2; p++ {
		if _, err := pageText(r, context.Background(), p); err != nil {
			t.Fatalf("page %d: %v", p, err)
		}
	}
	if _, err := pageText(r, context.Background(), 3); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "max_document_bytes") {
		t.Fatalf("page 3: err = %v, want ErrTooLarge naming max_document_bytes", err)
	}
}
