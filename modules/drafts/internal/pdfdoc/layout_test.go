package pdfdoc

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
)

func firstPageText(t *testing.T, file []byte) string {
	t.Helper()
	r, err := Open(context.Background(), bytes.NewReader(file), int64(len(file)), bounds)
	if err != nil {
		t.Fatal(err)
	}
	text, err := pageText(r, context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestTwoColumnsAreReadColumnByColumn(t *testing.T) {
	file, left, right := pdffixtures.TwoColumns()
	want := "Two Column Cardiology Review\n" + strings.Join(left, "\n") + "\n" + strings.Join(right, "\n")
	if got := firstPageText(t, file); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestAnOptionGridIsReadRowByRow(t *testing.T) {
	// Options in two columns of two rows: too few rows to be columns of text.
	content := "BT /F2 10 Tf 1 0 0 1 50 700 Tm (1. Which valve is on the left side of the heart?) Tj ET\n" +
		"BT /F2 10 Tf 1 0 0 1 50 686 Tm (A. Mitral) Tj ET BT /F2 10 Tf 1 0 0 1 300 686 Tm (B. Tricuspid) Tj ET\n" +
		"BT /F2 10 Tf 1 0 0 1 50 672 Tm (C. Pulmonary) Tj ET BT /F2 10 Tf 1 0 0 1 300 672 Tm (D. None) Tj ET\n"
	got := firstPageText(t, pdffixtures.BuildContent([]string{content}, pdffixtures.Options{}))
	want := "1. Which valve is on the left side of the heart?\nA. Mitral B. Tricuspid\nC. Pulmonary D. None"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestLigaturesAreSpelledOutAndLineEndHyphensJoined(t *testing.T) {
	want := "The first fluid bolus is given before the examination\nof the abdomen."
	if got := firstPageText(t, pdffixtures.Ligatures()); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestNULAndControlCharactersNeverReachTheText(t *testing.T) {
	if got := firstPageText(t, pdffixtures.NULText()); got != "Question 1. Dose 10mg of what?" {
		t.Fatalf("got %q", got)
	}
	if got := Clean("a\x00b\x01c\xff\xfed\tе\ufb01x"); got != "abcd еfix" {
		t.Fatalf("Clean = %q", got)
	}
}

func TestInlineImagesFormsAndTheCropBox(t *testing.T) {
	// An inline image whose bytes hold delimiters, a form drawn twice (its
	// text read each time), and a line outside the crop box (not shown).
	content := "BI /W 4 /H 4 /BPC 8 /CS /G ID \x00)(]>>\x00\xff EI\n" +
		"BT /F1 10 Tf 50 700 Td (Before the form) Tj ET q 1 0 0 1 0 -20 cm /Fm Do Q q 1 0 0 1 0 -40 cm /Fm Do Q\n" +
		"BT /F1 10 Tf 50 2000 Td (Off the page) Tj ET"
	w := pdffixtures.BuildContent([]string{content}, pdffixtures.Options{})
	// The builder has no forms: add one to the page's resources by hand.
	form := "9 0 obj\n<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Length 40 >>\nstream\n" +
		"BT /F1 10 Tf 50 700 Td (In the form) Tj ET\nendstream\nendobj\n"
	w = bytes.Replace(w, []byte("/Font << /F1 3 0 R /F2 4 0 R >> >>"), []byte("/Font << /F1 3 0 R /F2 4 0 R >> /XObject << /Fm 9 0 R >> >>"), 1)
	xref := bytes.LastIndex(w, []byte("\nxref\n")) + 1
	file := append(append([]byte(nil), w[:xref]...), form...)
	file = bytes.Replace(append(file, w[xref:]...), []byte("xref\n0 7\n"), []byte("xref\n0 7\n"), 1)
	var out bytes.Buffer
	if err := Repair(context.Background(), bytes.NewReader(file), int64(len(file)), &out, bounds); err != nil {
		t.Fatal(err)
	}
	if got := firstPageText(t, out.Bytes()); got != "Before the form\nIn the form\nIn the form" {
		t.Fatalf("got %q", got)
	}
}

// arc shows text glyph by glyph along a circle (centre cx, cy, radius r),
// clockwise from the polar angle from (degrees), each glyph under its own
// text matrix turned to the tangent, as drawing programs set text on a
// path. Font /F2 at 14 points: every glyph is 7 points wide.
func arc(text string, cx, cy, r, from float64) string {
	var c strings.Builder
	c.WriteString("BT /F2 14 Tf\n")
	for i, ch := range text {
		polar := from*math.Pi/180 - float64(7*i)/r
		tangent := polar - math.Pi/2
		sin, cos := math.Sincos(tangent)
		fmt.Fprintf(&c, "%.4f %.4f %.4f %.4f %.2f %.2f Tm (%c) Tj\n",
			cos, sin, -sin, cos, cx+r*math.Cos(polar), cy+r*math.Sin(polar), ch)
	}
	c.WriteString("ET\n")
	return c.String()
}

func TestTextSetAlongACurveIsReadAsItsWords(t *testing.T) {
	// Above a line of upright text, a line set on an arc: its baselines
	// turn from 75 to 11 degrees, a few degrees a glyph.
	content := "BT /F2 10 Tf 1 0 0 1 50 100 Tm (Upright text below the arc) Tj ET\n" +
		arc("Heart sounds and murmurs", 306, 300, 150, 165)
	got := firstPageText(t, pdffixtures.BuildContent([]string{content}, pdffixtures.Options{}))
	if want := "Upright text below the arc\nHeart sounds and murmurs"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestSkewedLinesAreReadAlongTheirBaseline(t *testing.T) {
	// A text matrix that both turns and shears the text (its baseline
	// falls at 26.6 degrees, its glyphs stand at 45), two lines of it,
	// the second a line below the first in the text's own space.
	content := "BT /F2 1 Tf 14 -7 7 7 50 600 Tm (Lorem ipsum dolor) Tj 0 -2 Td (sit amet consectetur) Tj ET"
	got := firstPageText(t, pdffixtures.BuildContent([]string{content}, pdffixtures.Options{}))
	if want := "Lorem ipsum dolor\nsit amet consectetur"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestTextIsReadWhereItsGlyphsShowOnThePage(t *testing.T) {
	// 20-point lines at the page's bottom and top edges: a glyph shows
	// when the middle of its body (a third of an em above its baseline)
	// is on the page, not merely its baseline within an em of it.
	content := "BT /F2 20 Tf 1 0 0 1 50 789 Tm (Cut at the top) Tj ET\n" +
		"BT /F2 20 Tf 1 0 0 1 50 400 Tm (The middle of the page) Tj ET\n" +
		"BT /F2 20 Tf 1 0 0 1 50 -3 Tm (Shows above the bottom) Tj ET\n" +
		"BT /F2 20 Tf 1 0 0 1 300 -16 Tm (Lost below the bottom) Tj ET\n"
	got := firstPageText(t, pdffixtures.BuildContent([]string{content}, pdffixtures.Options{}))
	if want := "The middle of the page\nShows above the bottom"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
