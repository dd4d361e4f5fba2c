package pdfdoc

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A page's text is put in reading order from where its glyphs stand, not
// from the order the content stream draws them: glyphs join into words
// (a gap of more than 0.15 em, or a space, ends one), words on one
// baseline into rows, and a row splits where a gap is wider than an em
// (table cells, columns). The pieces are then ordered by cutting the page
// recursively: where a vertical gutter runs the whole height of what is
// left, with at least three rows of text-filled lines on each side, the
// left column is read before the right one; otherwise the top row is
// read and the rest cut again. A title across both columns is therefore
// read first, and the two columns under it column by column.

// Tolerances, in ems of the text's own size.
const (
	wordGap    = 0.15 // a wider gap between glyphs starts a new word
	segmentGap = 1.0  // a wider gap between words splits a row
	rowShift   = 0.5  // baselines closer than this are one row (sub- and superscripts)
)

// Column cuts need this much: gutter width (ems), rows on each side,
// share of the region's width on each side, and how full its lines are.
const (
	minGutter     = 0.5
	minColumnRows = 3
	minColumnPart = 0.2
	minColumnFill = 0.5
)

// frag is a word (or a run of words shown without spaces) in the frame
// of its text direction: x grows along the text, y up the page. dir is
// the quarter turn of the text (0 upright), plus 4 when mirrored.
type frag struct {
	text       []byte
	x0, x1, y  float64
	size       float64
	dir        int
	spaceAfter bool
}

// collector gathers a page's glyphs into words.
type collector struct {
	frags []*frag
	cur   *frag
	// box is the visible part of the page (its crop box): text outside
	// it is not shown, so it is not read (a page cut out of a larger one
	// keeps the larger page's text).
	box   [4]float64
	boxed bool
}

// rotate maps a point into the frame where text of direction dir runs
// left to right.
func rotate(dir int, x, y float64) (float64, float64) {
	switch dir {
	case 1:
		return y, -x
	case 2:
		return -x, -y
	case 3:
		return -y, x
	}
	return x, y
}

func (c *collector) add(text string, x0, y0, x1, y1, size float64, trm matrix) {
	if text == "" {
		return // a glyph with no known text: its advance still moved the pen
	}
	if strings.TrimSpace(text) == "" {
		if c.cur != nil {
			c.cur.spaceAfter = true
		}
		c.cur = nil
		return
	}
	if size < 0.1 || math.IsNaN(size) || math.IsInf(size, 0) {
		size = 1
	}
	if c.boxed {
		mx, my := (x0+x1)/2, (y0+y1)/2
		if mx < c.box[0] || mx > c.box[2] || my < c.box[1]-size || my > c.box[3] {
			return
		}
	}
	dir := int(math.Round(math.Atan2(trm[1], trm[0])/(math.Pi/2))) & 3
	rx0, ry := rotate(dir, x0, y0)
	rx1, _ := rotate(dir, x1, y1)
	if trm[0]*trm[3]-trm[1]*trm[2] < 0 {
		// A mirrored frame (a flipped y axis): its lines run down the
		// text's own y axis, which is up the page.
		ry, dir = -ry, dir+4
	}
	if rx1 < rx0 {
		rx1 = rx0
	}
	if f := c.cur; f != nil && f.dir == dir && math.Abs(ry-f.y) < 0.3*size &&
		rx0 > f.x1-0.6*size && rx0-f.x1 < wordGap*max(size, f.size) {
		f.text = append(f.text, text...)
		f.x1 = max(f.x1, rx1)
		f.size = max(f.size, size)
		return
	}
	c.cur = &frag{text: []byte(text), x0: rx0, x1: rx1, y: ry, size: size, dir: dir}
	c.frags = append(c.frags, c.cur)
}

// segment is a piece of a row between wide gaps.
type segment struct {
	x0, x1 float64
	size   float64
	row    int
	text   string
}

// text lays the page out and returns its lines.
func (c *collector) text() string {
	var lines []string
	for dir := 0; dir < 8; dir++ {
		var frags []*frag
		for _, f := range c.frags {
			if f.dir == dir {
				frags = append(frags, f)
			}
		}
		if len(frags) == 0 {
			continue
		}
		segs := segments(frags)
		lines = append(lines, joinRows(order(segs))...)
	}
	return Clean(strings.Join(dehyphenate(lines), "\n"))
}

// segments groups words into rows (top first) and splits rows at wide
// gaps.
func segments(frags []*frag) []*segment {
	sort.SliceStable(frags, func(i, j int) bool { return frags[i].y > frags[j].y })
	var segs []*segment
	row := 0
	for start := 0; start < len(frags); row++ {
		top, size := frags[start].y, frags[start].size
		end := start + 1
		for end < len(frags) && top-frags[end].y <= rowShift*max(size, frags[end].size) {
			size = max(size, frags[end].size)
			end++
		}
		words := frags[start:end]
		sort.SliceStable(words, func(i, j int) bool { return words[i].x0 < words[j].x0 })
		var b strings.Builder
		var seg *segment
		var prev *frag
		for _, f := range words {
			if prev != nil && string(f.text) == string(prev.text) && math.Abs(f.x0-prev.x0) < 0.2*f.size {
				continue // the same word drawn twice (fake bold, shadows)
			}
			gap := 0.0
			if prev != nil {
				gap = f.x0 - prev.x1
			}
			if seg == nil || gap > segmentGap*max(f.size, prev.size) {
				if seg != nil {
					seg.text = b.String()
					b.Reset()
				}
				seg = &segment{x0: f.x0, x1: f.x1, size: f.size, row: row}
				segs = append(segs, seg)
			} else if gap > wordGap*max(f.size, prev.size) || prev.spaceAfter {
				b.WriteByte(' ')
			}
			b.Write(f.text)
			seg.x1 = max(seg.x1, f.x1)
			seg.size = max(seg.size, f.size)
			prev = f
		}
		seg.text = b.String()
		start = end
	}
	return segs
}

// order puts segments (in row order, left to right within a row) into
// reading order.
func order(segs []*segment) []*segment {
	out := make([]*segment, 0, len(segs))
	gapFrom := suffixGaps(segs)
	for i := 0; i < len(segs); {
		if gapFrom[i] {
			if left, right, ok := verticalCut(segs[i:]); ok {
				out = append(out, order(left)...)
				return append(out, order(right)...)
			}
		}
		j := i + 1
		for j < len(segs) && segs[j].row == segs[i].row {
			j++
		}
		out = append(out, segs[i:j]...)
		i = j
	}
	return out
}

// suffixGaps reports, for each i, whether the segments from i on leave a
// vertical gap anywhere in their horizontal extent: only there can a
// column cut exist. Built bottom-up in one pass.
func suffixGaps(segs []*segment) []bool {
	out := make([]bool, len(segs)+1)
	var spans [][2]float64 // disjoint, sorted
	for i := len(segs) - 1; i >= 0; i-- {
		s := segs[i]
		spans = insertSpan(spans, s.x0, s.x1)
		gap := minGutter * s.size
		for k := 1; k < len(spans) && !out[i]; k++ {
			out[i] = spans[k][0]-spans[k-1][1] >= gap
		}
	}
	return out[:len(segs)]
}

func insertSpan(spans [][2]float64, x0, x1 float64) [][2]float64 {
	var out [][2]float64
	placed := false
	for _, s := range spans {
		switch {
		case s[1] < x0:
			out = append(out, s)
		case s[0] > x1:
			if !placed {
				out = append(out, [2]float64{x0, x1})
				placed = true
			}
			out = append(out, s)
		default:
			x0, x1 = min(x0, s[0]), max(x1, s[1])
		}
	}
	if !placed {
		out = append(out, [2]float64{x0, x1})
	}
	return out
}

// verticalCut finds the widest gutter that splits segs into two columns
// of text (see the constants above) and returns each side in row order.
func verticalCut(segs []*segment) (left, right []*segment, ok bool) {
	byX := append([]*segment(nil), segs...)
	sort.SliceStable(byX, func(i, j int) bool { return byX[i].x0 < byX[j].x0 })
	lo, hi := byX[0].x0, byX[0].x1
	for _, s := range byX {
		hi = max(hi, s.x1)
	}
	best, cut := 0.0, 0.0
	reach := byX[0].x1
	for i := 1; i < len(byX); i++ {
		s := byX[i]
		if gap := s.x0 - reach; gap >= minGutter*s.size && gap > best && columnsOK(byX[:i], byX[i:], lo, hi) {
			best, cut = gap, s.x0
		}
		reach = max(reach, s.x1)
	}
	if best == 0 {
		return nil, nil, false
	}
	for _, s := range segs {
		if s.x0 < cut {
			left = append(left, s)
		} else {
			right = append(right, s)
		}
	}
	return left, right, true
}

func columnsOK(a, b []*segment, lo, hi float64) bool {
	return columnOK(a, lo, hi) && columnOK(b, lo, hi)
}

// columnOK: enough rows, wide enough, and lines that fill it like text.
func columnOK(side []*segment, lo, hi float64) bool {
	rows := map[int]bool{}
	x0, x1 := math.Inf(1), math.Inf(-1)
	widths := make([]float64, 0, len(side))
	for _, s := range side {
		rows[s.row] = true
		x0, x1 = min(x0, s.x0), max(x1, s.x1)
		widths = append(widths, s.x1-s.x0)
	}
	if len(rows) < minColumnRows || x1-x0 < minColumnPart*(hi-lo) {
		return false
	}
	sort.Float64s(widths)
	return widths[len(widths)/2] >= minColumnFill*(x1-x0)
}

// joinRows makes lines: consecutive pieces of one row share a line.
func joinRows(segs []*segment) []string {
	var lines []string
	for i := 0; i < len(segs); {
		j := i + 1
		parts := []string{segs[i].text}
		for j < len(segs) && segs[j].row == segs[i].row {
			parts = append(parts, segs[j].text)
			j++
		}
		lines = append(lines, strings.Join(parts, " "))
		i = j
	}
	return lines
}

// dehyphenate joins a word broken at a line end: a line ending in a
// letter and a hyphen (or a soft hyphen), and a next line starting with a
// lower-case letter, make one word on the first line.
func dehyphenate(lines []string) []string {
	for i := 0; i+1 < len(lines); i++ {
		line := strings.TrimRight(lines[i], " ")
		last, n := utf8.DecodeLastRuneInString(line)
		if last != '-' && last != '\u00ad' && last != '\u2010' {
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(line[:len(line)-n])
		next := strings.TrimLeft(lines[i+1], " ")
		first, _ := utf8.DecodeRuneInString(next)
		if !unicode.IsLetter(before) || !unicode.IsLower(first) {
			continue
		}
		word, rest, _ := strings.Cut(next, " ")
		lines[i] = line[:len(line)-n] + word
		lines[i+1] = rest
	}
	return lines
}
