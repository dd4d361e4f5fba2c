package pdfdoc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
)

func TestInspectAcceptsTheQuestionPaper(t *testing.T) {
	pages, err := inspect(context.Background(), bytes.NewReader(pdffixtures.QuestionPaper()), int64(len(pdffixtures.QuestionPaper())))
	if err != nil || pages != len(pdffixtures.PaperPages) {
		t.Fatalf("pages=%d err=%v, want %d pages", pages, err, len(pdffixtures.PaperPages))
	}
}

func TestOpenSaysWhyTheFastReaderRefuses(t *testing.T) {
	locked, err := pdffixtures.EncryptedLocked("AES-256")
	if err != nil {
		t.Fatal(err)
	}
	paper := pdffixtures.QuestionPaper()
	cases := map[string]struct {
		file       []byte
		want       error
		repairable bool
	}{
		"not a pdf":  {pdffixtures.NotAPDF(), ErrNotPDF, false},
		"empty":      {nil, ErrNotPDF, false},
		"malformed":  {pdffixtures.Malformed(), ErrMalformed, true},
		"truncated":  {paper[:len(paper)/2], ErrMalformed, true},
		"aes-256":    {locked, ErrUnsupported, true},
		"zero pages": {pdffixtures.ZeroPages(), ErrNoPages, true},
		"junk first": {append([]byte("garbage\n"), paper...), ErrUnsupported, true},
		"2^40 pages": {pdffixtures.HugeCount(1 << 40), ErrMalformed, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := inspect(context.Background(), bytes.NewReader(c.file), int64(len(c.file)))
			if !errors.Is(err, c.want) || Repairable(err) != c.repairable {
				t.Fatalf("err = %v (repairable %v), want %v (repairable %v)", err, Repairable(err), c.want, c.repairable)
			}
		})
	}
}

func TestRepairSaysWhenAPasswordIsNeeded(t *testing.T) {
	locked, err := pdffixtures.EncryptedLocked("AES-256")
	if err != nil {
		t.Fatal(err)
	}
	if err := Repair(context.Background(), bytes.NewReader(locked), int64(len(locked)), io.Discard, bounds); !errors.Is(err, ErrNeedsPassword) {
		t.Fatalf("err = %v, want ErrNeedsPassword", err)
	}
}

func TestRepairRebuildsCrossReferencesAndKeepsTheText(t *testing.T) {
	for _, kind := range pdffixtures.Damages {
		t.Run(kind, func(t *testing.T) {
			file := pdffixtures.Damaged(kind)
			var out bytes.Buffer
			if err := Repair(context.Background(), bytes.NewReader(file), int64(len(file)), &out, bounds); err != nil {
				t.Fatal(err)
			}
			r, err := Open(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), bounds)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := pageText(r, context.Background(), 1); err != nil || got != strings.Join(pdffixtures.FirstPage, "\n") {
				t.Fatalf("page 1 = %q, err = %v", got, err)
			}
		})
	}
}

func TestThePDF2HeaderReadsLike17(t *testing.T) {
	paper := bytes.Replace(pdffixtures.QuestionPaper(), []byte("%PDF-1.4"), []byte("%PDF-2.0"), 1)
	if n, err := inspect(context.Background(), bytes.NewReader(paper), int64(len(paper))); err != nil || n != len(pdffixtures.PaperPages) {
		t.Fatalf("pages = %d, err = %v", n, err)
	}
}

func TestHeaderMayFollowJunkWithinTheWindow(t *testing.T) {
	if !HasHeader(append(bytes.Repeat([]byte{' '}, 500), "%PDF-1.4"...)) {
		t.Fatal("header at byte 500 should be found")
	}
	if HasHeader(append(bytes.Repeat([]byte{' '}, HeaderWindow), "%PDF-1.4"...)) {
		t.Fatal("header past the window should not be found")
	}
}

func TestPageTextKeepsLines(t *testing.T) {
	file := pdffixtures.QuestionPaper()
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if r.NumPages() != len(pdffixtures.PaperPages) {
		t.Fatalf("NumPages = %d", r.NumPages())
	}
	for i, want := range pdffixtures.PaperPages {
		got, err := pageText(r, context.Background(), i+1)
		if err != nil {
			t.Fatal(err)
		}
		if got != strings.Join(want, "\n") {
			t.Fatalf("page %d:\n%s\nwant:\n%s", i+1, got, strings.Join(want, "\n"))
		}
	}
	if _, err := pageText(r, context.Background(), len(pdffixtures.PaperPages)+1); !errors.Is(err, ErrMalformed) {
		t.Fatalf("page past the end: err = %v", err)
	}
}

func TestSizedIsExact(t *testing.T) {
	for _, size := range []int{4096, 65536, 65537, 262144} {
		f := pdffixtures.Sized(size)
		if len(f) != size {
			t.Fatalf("Sized(%d) is %d bytes", size, len(f))
		}
		if _, err := inspect(context.Background(), bytes.NewReader(f), int64(len(f))); err != nil {
			t.Fatalf("Sized(%d): %v", size, err)
		}
	}
}

func TestPageTextPlacesRunsByTheirPosition(t *testing.T) {
	streams := []string{
		// Word processors: a text matrix per line, kerned TJ arrays whose
		// big negative numbers are word gaps, runs split mid-word.
		"BT /F2 10 Tf 1 0 0 1 72 700 Tm [(1.)-250(Which)-300(drug?)] TJ " +
			"1 0 0 1 72 686 Tm (A. Asp) Tj (irin) Tj ET",
		// Leading with T*, ' and a flipped coordinate system (cm).
		"q 1 0 0 -1 0 792 cm BT /F1 12 Tf 14 TL 50 60 Td (First line) Tj T* (Second) Tj ( line) Tj (Third line) ' ET Q",
		// Two runs on one baseline with a wide gap between them.
		"BT /F1 11 Tf 50 700 Td (Answer:) Tj 80 0 Td (B) Tj ET",
	}
	file := pdffixtures.BuildContent(streams, pdffixtures.Options{Compress: true})
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1. Which drug?\nA. Aspirin",
		"First line\nSecond line\nThird line",
		"Answer: B",
	}
	for i, w := range want {
		got, err := pageText(r, context.Background(), i+1)
		if err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("page %d: got %q, want %q", i+1, got, w)
		}
	}
}

func TestPageTextSurvivesBrokenContentStreams(t *testing.T) {
	streams := []string{"BT /F1 10 Tf (unterminated Tj ET", "BT /F1 10 Tf (kept) Tj ] ET", "BT 1 2 Tm (short matrix) Tj ET"}
	file := pdffixtures.BuildContent(streams, pdffixtures.Options{})
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// What can be read is kept; nothing panics.
	for i, want := range []string{"", "kept", "short matrix"} {
		text, err := pageText(r, context.Background(), i+1)
		if err != nil || text != want {
			t.Fatalf("page %d: text=%q err=%v, want %q", i+1, text, err, want)
		}
	}
}

// inspect is what an upload checks: the structure opens and its pages are counted.
func inspect(ctx context.Context, ra io.ReaderAt, size int64) (int, error) {
	r, err := Open(ctx, ra, size, Limits{})
	if err != nil {
		return 0, err
	}
	return r.NumPages(), nil
}

func pageText(r *Reader, ctx context.Context, n int) (string, error) {
	p, err := r.ReadPage(ctx, n)
	return p.Text, err
}
