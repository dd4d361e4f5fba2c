package pdfdoc

import (
	"context"
	"math"

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

func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

func matrixOf(v pdf.Value) (matrix, bool) {
	if v.Len() != 6 {
		return identity, false
	}
	var m matrix
	for i := range m {
		m[i] = v.Index(i).Float64()
	}
	return m, true
}

// gstate is the part of the graphics state text placement needs.
type gstate struct {
	ctm       matrix
	font      *font
	size      float64
	charSpace float64
	wordSpace float64
	hscale    float64
	leading   float64
	rise      float64
}

// Bounds on what one page may make the interpreter do: forms nested
// deeper than readers go, or painted more times than a page holds, are a
// file built to make a small page cost without end.
const (
	maxFormDepth = 12
	maxForms     = 5000
)

// walker interprets a page's content stream, forms and annotation
// appearances, placing every glyph it shows on the page (layout.go puts
// them in reading order).
type walker struct {
	ctx    context.Context
	doc    *Reader
	g      gstate
	stack  []gstate
	tm     matrix
	tlm    matrix
	res    pdf.Value
	fonts  map[string]*font // by name in the current resources
	depth  int
	forms  int
	images int
	// imageArea is the area images cover on the page (each image is the
	// unit square under the current transformation).
	imageArea float64
	page      *collector
	cache     map[string][]byte // form streams, decoded once per page
}

func newWalker(ctx context.Context, doc *Reader) *walker {
	return &walker{ctx: ctx, doc: doc, page: &collector{}, cache: map[string][]byte{}, g: gstate{hscale: 1}}
}

// run interprets one content stream under the given resources and
// transformation.
func (w *walker) run(content []byte, res pdf.Value, ctm matrix) {
	saved := w.g
	savedStack, savedRes, savedFonts := w.stack, w.res, w.fonts
	w.g.ctm = ctm // a form inherits the state it is painted in
	w.stack, w.res, w.fonts = nil, res, map[string]*font{}
	w.tm, w.tlm = identity, identity
	lx := &lexer{b: content}
	lx.each(w.op)
	w.g, w.stack, w.res, w.fonts = saved, savedStack, savedRes, savedFonts
}

func nums(args []operand, n int) ([]float64, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = args[len(args)-n+i].number()
	}
	return out, true
}

func (w *walker) op(op string, args []operand) bool {
	checkpoint(w.ctx)
	switch op {
	case "q":
		if len(w.stack) < 256 {
			w.stack = append(w.stack, w.g)
		}
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
		if len(args) >= 2 {
			w.setFont(args[len(args)-2].str, args[len(args)-1].number())
		}
	case "Tc":
		if v, ok := nums(args, 1); ok {
			w.g.charSpace = v[0]
		}
	case "Tw":
		if v, ok := nums(args, 1); ok {
			w.g.wordSpace = v[0]
		}
	case "TL":
		if v, ok := nums(args, 1); ok {
			w.g.leading = v[0]
		}
	case "Tz":
		if v, ok := nums(args, 1); ok {
			w.g.hscale = v[0] / 100
		}
	case "Ts":
		if v, ok := nums(args, 1); ok {
			w.g.rise = v[0]
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
		if len(args) >= 1 {
			w.show(args[len(args)-1].str)
		}
	case "'":
		if len(args) >= 1 {
			w.nextLine()
			w.show(args[len(args)-1].str)
		}
	case "\"":
		if v, ok := nums(args[:max(len(args)-1, 0)], 2); ok {
			w.g.wordSpace, w.g.charSpace = v[0], v[1]
		}
		if len(args) >= 1 {
			w.nextLine()
			w.show(args[len(args)-1].str)
		}
	case "TJ":
		if len(args) >= 1 {
			w.showArray(args[len(args)-1].arr)
		}
	case "Do":
		if len(args) >= 1 {
			w.xobject(args[len(args)-1].str)
		}
	case "BI":
		w.image()
	}
	return true
}

func (w *walker) setFont(name string, size float64) {
	w.g.size = size
	f, ok := w.fonts[name]
	if !ok {
		v := w.res.Key("Font").Key(name)
		if v.Kind() == pdf.Dict {
			f = w.doc.font(w.ctx, v)
		}
		w.fonts[name] = f
	}
	w.g.font = f
}

func (w *walker) nextLine() {
	w.tlm = translate(0, -w.g.leading).mul(w.tlm)
	w.tm = w.tlm
}

// showArray shows a TJ array; a number moves the pen left (positive) or
// right (negative) in thousandths of an em.
func (w *walker) showArray(arr []operand) {
	for _, x := range arr {
		if x.kind == 's' {
			w.show(x.str)
			continue
		}
		w.tm = translate(-x.number()/1000*w.g.size*w.g.hscale, 0).mul(w.tm)
	}
}

// show places each glyph of a string and moves the pen past it. The
// run's transformation is computed once; each glyph is its advance along
// it.
func (w *walker) show(raw string) {
	f := w.g.font
	if f == nil {
		f = fallbackFont()
	}
	g := &w.g
	pre := w.tm.mul(g.ctm)
	trm := matrix{g.size * g.hscale, 0, 0, g.size, 0, g.rise}.mul(pre)
	size := math.Hypot(trm[2], trm[3])
	dx := 0.0 // the pen's advance along the run, in unscaled text space
	f.each(raw, func(gl glyph) {
		x0, y0 := pre.apply(dx, g.rise)
		x1, y1 := pre.apply(dx+gl.width*g.size*g.hscale, g.rise)
		w.page.add(gl.text, x0, y0, x1, y1, size, trm)
		adv := gl.width*g.size + g.charSpace
		if gl.space {
			adv += g.wordSpace
		}
		dx += adv * g.hscale
	})
	w.tm = translate(dx, 0).mul(w.tm)
}

// xobject paints a form (its content, under its matrix and resources) or
// counts an image, which carries no text.
func (w *walker) xobject(name string) {
	x := w.res.Key("XObject").Key(name)
	switch x.Key("Subtype").Name() {
	case "Image":
		w.image()
	case "Form":
		m, _ := matrixOf(x.Key("Matrix"))
		w.form(x, m.mul(w.g.ctm))
	}
}

// image counts an image painted under the current transformation.
func (w *walker) image() {
	w.images++
	w.imageArea += math.Abs(w.g.ctm[0]*w.g.ctm[3] - w.g.ctm[1]*w.g.ctm[2])
}

// form interprets a form XObject at most maxFormDepth deep and maxForms
// times a page.
func (w *walker) form(x pdf.Value, ctm matrix) {
	if x.Kind() != pdf.Stream || w.depth >= maxFormDepth || w.forms >= maxForms {
		return
	}
	w.forms++
	id := x.String() // a stream prints its dictionary and file offset
	content, ok := w.cache[id]
	if !ok {
		content = w.doc.readStream(w.ctx, x, "a form's content stream")
		w.cache[id] = content
	}
	res := x.Key("Resources")
	if res.Kind() != pdf.Dict {
		res = w.res
	}
	w.depth++
	w.run(content, res, ctm)
	w.depth--
}

// annotations paints the normal appearance of each visible annotation
// (filled-in form fields, stamps, signatures), fitted to its rectangle
// as viewers draw it.
func (w *walker) annotations(annots pdf.Value, ctm matrix) {
	for i := 0; i < annots.Len() && i < maxForms; i++ {
		a := annots.Index(i)
		if a.Key("F").Int64()&2 != 0 || a.Key("Subtype").Name() == "Popup" {
			continue
		}
		ap := a.Key("AP").Key("N")
		if ap.Kind() == pdf.Dict {
			ap = ap.Key(a.Key("AS").Name())
		}
		if ap.Kind() != pdf.Stream {
			continue
		}
		rect := a.Key("Rect")
		bbox := ap.Key("BBox")
		if rect.Len() != 4 || bbox.Len() != 4 {
			continue
		}
		m, _ := matrixOf(ap.Key("Matrix"))
		bx0, by0 := m.apply(bbox.Index(0).Float64(), bbox.Index(1).Float64())
		bx1, by1 := m.apply(bbox.Index(2).Float64(), bbox.Index(3).Float64())
		rx0, ry0, rx1, ry1 := rect.Index(0).Float64(), rect.Index(1).Float64(), rect.Index(2).Float64(), rect.Index(3).Float64()
		sx, sy := 1.0, 1.0
		if bx1 != bx0 {
			sx = (rx1 - rx0) / (bx1 - bx0)
		}
		if by1 != by0 {
			sy = (ry1 - ry0) / (by1 - by0)
		}
		fit := matrix{sx, 0, 0, sy, rx0 - bx0*sx, ry0 - by0*sy}
		w.form(ap, m.mul(fit).mul(ctm))
	}
}

// fallbackFont shows text in a font a page forgot to set: codes as
// StandardEncoding, half an em wide.
var fallbackFont = func() func() *font {
	f := &font{enc: standard(), scale: 0.001}
	for c := range f.widths {
		f.widths[c] = 500
	}
	return func() *font { return f }
}()

// font is the document's reading of a font dictionary, parsed once.
func (r *Reader) font(ctx context.Context, v pdf.Value) *font {
	id := v.String()
	if f, ok := r.fonts[id]; ok {
		return f
	}
	f := r.loadFont(ctx, v)
	if r.fonts == nil {
		r.fonts = map[string]*font{}
	}
	r.fonts[id] = f
	return f
}
