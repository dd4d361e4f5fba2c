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
	"bug946506.pdf": {"its lines are slanted (a text matrix that turns them by 26.6 degrees and shears them), " +
		"diagonal to poppler, whose -raw reading still breaks 7 of its 37 words where the baseline steps half " +
		"an em between pieces (elem|entum, m|etus, S|uspen, Q|uis, sem|per, m|assa, C|u; with those joined the " +
		"overlap is 0.892); the 4 words left are cut by the page edge, where poppler keeps a glyph whose origin " +
		"is on the page and we keep one whose body's middle is (elementu, sequat, Pr and the last s of the first line)", 0.60},
}

// reference is poppler's reading of a document, and how it was read.
// Text poppler calls diagonal (a baseline leaning off the page's axes by
// more than a tenth; `pdftotext -nodiag` drops it) is read by its default
// mode as pieces: it ends a word wherever the baseline has moved half a
// point from the word's start, which on a slanted line is every glyph or
// two (bug946506 gives 113 "words", nearly all of one or two letters,
// where -raw gives 44). Its -raw mode keeps the pieces in the order the
// page draws them and joins them, breaking only where the baseline jumps
// half an em, so a document with diagonal text is compared with -raw;
// every other one with the default reading.
func reference(path string) (text, mode string, err error) {
	read := func(args ...string) (string, error) {
		out, err := exec.Command("pdftotext", append(append([]string{"-enc", "UTF-8"}, args...), path, "-")...).Output()
		return string(out), err
	}
	text, err = read()
	if err != nil || total(words(text)) < ordinaryWords {
		return text, "default", err
	}
	upright, err := read("-nodiag")
	if err != nil || total(words(upright)) == total(words(text)) {
		return text, "default", err
	}
	text, err = read("-raw")
	return text, "-raw (diagonal text)", err
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
		ref, mode, err := reference(path)
		if err != nil {
			continue // poppler cannot read it either: no reference
		}
		refWords := words(ref)
		if total(refWords) < ordinaryWords {
			continue
		}
		compared++
		ours := readAll(t, path)
		got := overlap(words(ours), refWords)
		t.Logf("%-32s overlap %.3f (%d words ours, %d poppler's, pdftotext %s)", name, got, total(words(ours)), total(refWords), mode)
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
