package pdfdoc

import (
	"context"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m×n in the PDF convention (row vectors).
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

// gstate is the part of the graphics state text placement needs.
type gstate struct {
	ctm     matrix
	font    *pdf.Font
	enc     pdf.TextEncoding
	size    float64
	leading float64
	hscale  float64
}

// walker turns a page's content stream into lines of text. It works per
// text-showing operator, not per glyph (the library's Content() makes an
// object per glyph, which cost hundreds of MiB on text-dense pages), and
// places each run by the text and transformation matrices: a change of
// baseline is a new line, a horizontal gap is a word break.
type walker struct {
	ctx   context.Context
	doc   *Reader
	page  pdf.Page
	fonts map[string]*pdf.Font
	g     gstate
	stack []gstate
	tm    matrix
	tlm   matrix

	out      strings.Builder
	started  bool
	lastY    float64
	lastEndX float64
	lastSize float64
}

func newWalker(ctx context.Context, doc *Reader, p pdf.Page) *walker {
	return &walker{ctx: ctx, doc: doc, page: p, fonts: map[string]*pdf.Font{},
		g: gstate{ctm: identity, hscale: 1, enc: nopEncoding{}}, tm: identity, tlm: identity}
}

type nopEncoding struct{}

func (nopEncoding) Decode(raw string) string { return raw }

// text interprets the page and returns its lines.
func (w *walker) text() string {
	contents := w.page.V.Key("Contents")
	if contents.IsNull() {
		return ""
	}
	w.doc.measure(w.ctx, contents, "the page's content stream")
	pdf.Interpret(contents, w.op)
	return tidy(w.out.String())
}

func popAll(stk *pdf.Stack) []pdf.Value {
	args := make([]pdf.Value, stk.Len())
	for i := len(args) - 1; i >= 0; i-- {
		args[i] = stk.Pop()
	}
	return args
}

func nums(args []pdf.Value, n int) ([]float64, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = args[len(args)-n+i].Float64()
	}
	return out, true
}

func (w *walker) op(stk *pdf.Stack, op string) {
	checkpoint(w.ctx)
	args := popAll(stk)
	switch op {
	case "q":
		w.stack = append(w.stack, w.g)
	case "Q":
		if n := len(w.stack); n > 0 {
			w.g, w.stack = w.stack[n-1], w.stack[:n-1]
		}
	case "cm":
		if v, ok := nums(args, 6); ok {
			w.g.ctm = matrix(v).mul(w.g.ctm)
		}
	case "BT":
		w.tm, w.tlm = identity, identity
	case "Tf":
		if len(args) == 2 {
			w.setFont(args[0].Name(), args[1].Float64())
		}
	case "TL":
		if v, ok := nums(args, 1); ok {
			w.g.leading = v[0]
		}
	case "Tz":
		if v, ok := nums(args, 1); ok {
			w.g.hscale = v[0] / 100
		}
	case "Td", "TD":
		if v, ok := nums(args, 2); ok {
			if op == "TD" {
				w.g.leading = -v[1]
			}
			w.tlm = translate(v[0], v[1]).mul(w.tlm)
			w.tm = w.tlm
		}
	case "Tm":
		if v, ok := nums(args, 6); ok {
			w.tm, w.tlm = matrix(v), matrix(v)
		}
	case "T*":
		w.nextLine()
	case "Tj":
		if len(args) == 1 {
			w.show(args[0].RawString())
		}
	case "'", "\"":
		if len(args) >= 1 {
			w.nextLine()
			w.show(args[len(args)-1].RawString())
		}
	case "TJ":
		if len(args) == 1 {
			w.showArray(args[0])
		}
	}
}

func (w *walker) setFont(name string, size float64) {
	f, ok := w.fonts[name]
	if !ok {
		font := w.page.Font(name)
		// The font's ToUnicode map is a stream the library inflates and
		// parses on its own: measure it first like the content.
		w.doc.measure(w.ctx, font.V.Key("ToUnicode"), "a font's ToUnicode map")
		f = &font
		w.fonts[name] = f
	}
	w.g.font, w.g.size = f, size
	w.g.enc = nopEncoding{}
	if !f.V.IsNull() {
		if enc := f.Encoder(); enc != nil {
			w.g.enc = enc
		}
	}
}

func (w *walker) nextLine() {
	w.tlm = translate(0, -w.g.leading).mul(w.tlm)
	w.tm = w.tlm
}

// showArray shows a TJ array; a number moves the pen left (positive) or
// right (negative) in thousandths of an em.
func (w *walker) showArray(arr pdf.Value) {
	for i := 0; i < arr.Len(); i++ {
		x := arr.Index(i)
		if x.Kind() == pdf.String {
			w.show(x.RawString())
			continue
		}
		w.tm = translate(-x.Float64()/1000*w.g.size*w.g.hscale, 0).mul(w.tm)
	}
}

// show places one run of text and moves the pen past it.
func (w *walker) show(raw string) {
	text := w.g.enc.Decode(raw)
	pos := w.tm.mul(w.g.ctm)
	x, y := pos[4], pos[5]
	size := math.Abs(w.g.size * math.Hypot(pos[2], pos[3]))
	if size == 0 {
		size = 1
	}
	if w.started {
		switch gap := x - w.lastEndX; {
		case math.Abs(y-w.lastY) > math.Max(size, w.lastSize)*0.5:
			w.out.WriteByte('\n')
		case gap > size*0.15 || gap < -size:
			w.out.WriteByte(' ')
		}
	}
	w.out.WriteString(text)
	w.tm = translate(w.advance(raw, text), 0).mul(w.tm)
	end := w.tm.mul(w.g.ctm)
	w.started, w.lastY, w.lastEndX, w.lastSize = true, y, end[4], size
}

// advance is the run's width in text space: the font's widths when it
// lists them, else half an em per character.
func (w *walker) advance(raw, text string) float64 {
	total := 0.0
	known := w.g.font != nil && len(w.g.font.Widths()) > 0
	if known {
		for i := 0; i < len(raw); i++ {
			total += w.g.font.Width(int(raw[i]))
		}
	}
	if !known || total == 0 {
		total = 500 * float64(utf8.RuneCountInString(text))
	}
	return total / 1000 * w.g.size * w.g.hscale
}

// tidy collapses runs of spaces and drops empty lines.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
