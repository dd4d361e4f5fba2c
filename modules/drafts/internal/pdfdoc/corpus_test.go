package pdfdoc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// corpusDir is shared/corpus/pdf beside the checkout (120 PDFs from
// pdf.js's test suite; see its README).
const corpusDir = "../../../../../shared/corpus/pdf"

// ordinaryWords is how many words poppler's pdftotext must read from a
// corpus file for it to count as an ordinary document (one with a text
// layer to compare); the rest are font, image and structure tests.
const ordinaryWords = 20

// minOverlap is the word overlap each ordinary document must reach.
const minOverlap = 0.95

// belowTarget are the ordinary documents that miss minOverlap, why, and
// the overlap they keep (so that they cannot get worse unnoticed).
var belowTarget = map[string]struct {
	why   string
	floor float64
}{
	"bug946506.pdf": {"its text is set along a curve, glyph by glyph; pdftotext's own output is two-letter " +
		"fragments, so the words cannot match (ours reads whole words)", 0.45},
}

// TestTextMatchesPopplerOnOrdinaryDocuments compares each ordinary
// document's text with pdftotext's (the reference reader): the share of
// words both read, counted with repeats, over the larger of the two
// counts. Words are runs of letters and digits, lower-cased.
func TestTextMatchesPopplerOnOrdinaryDocuments(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skipf("the corpus folder %s is absent (shared/ is not laid beside this checkout): nothing to compare", corpusDir)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext (poppler-utils) is needed as the reference; the test path installs it: ", err)
	}
	compared := 0
	for _, path := range files {
		name := filepath.Base(path)
		ref, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
		if err != nil {
			continue // poppler cannot read it either: no reference
		}
		refWords := words(string(ref))
		if total(refWords) < ordinaryWords {
			continue
		}
		compared++
		ours := readAll(t, path)
		got := overlap(words(ours), refWords)
		t.Logf("%-32s overlap %.3f (%d words ours, %d poppler's)", name, got, total(words(ours)), total(refWords))
		if known, ok := belowTarget[name]; ok {
			t.Logf("    below %.2f, known: %s", minOverlap, known.why)
			if got < known.floor {
				t.Errorf("%s: overlap %.3f fell below its floor %.2f", name, got, known.floor)
			}
			continue
		}
		if got < minOverlap {
			t.Errorf("%s: overlap %.3f, want at least %.2f", name, got, minOverlap)
		}
	}
	t.Logf("%d ordinary documents compared", compared)
}

// readAll reads a file as the reader child does: the fast reader, and
// the repaired copy when the fast one refuses it or a page.
func readAll(t *testing.T, path string) string {
	t.Helper()
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	text := func(file []byte) (string, error) {
		r, err := Open(ctx, bytes.NewReader(file), int64(len(file)), bounds)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for p := 1; p <= r.NumPages(); p++ {
			page, err := r.ReadPage(ctx, p)
			if err != nil {
				return "", err
			}
			b.WriteString(page.Text + "\n")
		}
		return b.String(), nil
	}
	out, err := text(file)
	if Repairable(err) {
		var fixed bytes.Buffer
		if err = Repair(ctx, bytes.NewReader(file), int64(len(file)), &fixed, bounds); err == nil {
			out, err = text(fixed.Bytes())
		}
	}
	if err != nil {
		t.Errorf("%s: %v", filepath.Base(path), err)
	}
	return out
}

func words(s string) map[string]int {
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		m[w]++
	}
	return m
}

func total(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

func overlap(ours, ref map[string]int) float64 {
	common := 0
	for w, c := range ref {
		common += min(c, ours[w])
	}
	return float64(common) / float64(max(total(ours), total(ref), 1))
}
