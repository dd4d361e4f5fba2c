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
//
// All of this happens in the frame of the text's own baseline. Upright
// text and text turned by a quarter turn share the page's axes; text set
// at another angle (a slanted banner, a skewed text matrix, glyphs placed
// one by one along a curve) is laid out along its own baseline, and a
// glyph joins the word before it when it stands where the previous
// glyph's advance ends, measured along that glyph's baseline: a word on a
// curve turns a little with each glyph and stays one word.

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

// Glyphs join into a word across a turn of at most this much between
// their baselines (cosine of 45°): letters on a curve turn by a few
// degrees each, a label set at right angles to its neighbour is another
// word.
const minJoinTurn = 0.7071

// diagonalSlope is how far (as the slope of its baseline, about 5.7°,
// the threshold at which poppler calls text diagonal) text may lean off
// a quarter turn and still be laid out in that quarter turn's frame: a
// line drawn slightly askew reads as a line among its neighbours.
const diagonalSlope = 0.1

// frame is the direction text runs in: its baseline's angle in tenths of
// a degree (0 to 3599, counter-clockwise from the page's x axis), and
// whether its y axis is flipped (mirrored text, whose lines run down its
// own y axis, which is up the page).
type frame struct {
	tenths   int
	mirrored bool
}

// frameOf is the frame of text drawn with the rendering matrix trm: a
// quarter turn when its baseline is that close to one, else its own
// angle.
func frameOf(trm matrix) frame {
	angle := math.Atan2(trm[1], trm[0])
	quarter := math.Round(angle / (math.Pi / 2))
	tenths := int(quarter) * 900
	if math.Abs(math.Tan(angle-quarter*math.Pi/2)) > diagonalSlope {
		tenths = int(math.Round(angle * 1800 / math.Pi))
	}
	return frame{tenths: (tenths%3600 + 3600) % 3600, mirrored: trm[0]*trm[3]-trm[1]*trm[2] < 0}
}

// axial reports whether the frame is a quarter turn of the page's axes.
func (fr frame) axial() bool { return fr.tenths%900 == 0 }

// point maps a page point into the frame: x along the baseline, y across
// it, up the page's side of the text.
func (fr frame) point(x, y float64) (float64, float64) {
	var sin, cos float64
	switch fr.tenths {
	case 0:
		sin, cos = 0, 1
	case 900:
		sin, cos = 1, 0
	case 1800:
		sin, cos = 0, -1
	case 2700:
		sin, cos = -1, 0
	default:
		sin, cos = math.Sincos(float64(fr.tenths) * math.Pi / 1800)
	}
	rx, ry := x*cos+y*sin, y*cos-x*sin
	if fr.mirrored {
		ry = -ry
	}
	return rx, ry
}

// frag is a word (or a run of words shown without spaces) in the frame
// of its first glyph: x grows along the text, y up the page. An unrolled
// word continues a curved line: it sits in the frame of the line's first
// word, at the distance along the curve.
type frag struct {
	text       []byte
	x0, x1, y  float64
	size       float64
	frame      frame
	unrolled   bool
	spaceAfter bool
}

// pen is where the last glyph read ended, on the page, and the unit
// direction of its baseline (zero before the first).
type pen struct {
	x, y, dx, dy float64
	mirrored     bool
}

// collector gathers a page's glyphs into words.
type collector struct {
	frags []*frag
	cur   *frag
	pen   pen
	// box is the visible part of the page (its crop box): text outside
	// it is not shown, so it is not read (a page cut out of a larger one
	// keeps the larger page's text).
	box   [4]float64
	boxed bool
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
		// The middle of the glyph's body (a third of an em above the
		// middle of its advance, up the text's own y axis) must be on the
		// visible page.
		mx, my := (x0+x1)/2+trm[2]/3, (y0+y1)/2+trm[3]/3
		if mx < c.box[0] || mx > c.box[2] || my < c.box[1] || my > c.box[3] {
			return
		}
	}
	fr := frameOf(trm)
	dx, dy := trm[0], trm[1]
	if n := math.Hypot(dx, dy); n > 0 {
		dx, dy = dx/n, dy/n
	} else {
		dx, dy = 1, 0
	}
	next := pen{x: x1, y: y1, dx: dx, dy: dy, mirrored: fr.mirrored}
	advance := math.Hypot(x1-x0, y1-y0)
	along, onLine := c.pen.along(next, x0, y0, size)
	c.pen = next
	if f := c.cur; f != nil && onLine && along < wordGap*max(size, f.size) {
		f.text = append(f.text, text...)
		if f.unrolled {
			f.x1 += along + advance
		} else {
			rx1, _ := f.frame.point(x1, y1)
			f.x1 = max(f.x1, rx1)
		}
		f.size = max(f.size, size)
		return
	}
	f := &frag{text: []byte(text), size: size, frame: fr}
	if last := c.last(); last != nil && onLine && last.frame != fr && along < segmentGap*max(size, last.size) {
		// The next word along a curve: laid out on the line it
		// continues, as if the curve were straightened.
		f.frame, f.y, f.unrolled = last.frame, last.y, true
		f.x0 = last.x1 + along
		f.x1 = f.x0 + advance
	} else {
		f.x0, f.y = fr.point(x0, y0)
		f.x1, _ = fr.point(x1, y1)
		f.x1 = max(f.x1, f.x0)
	}
	c.cur = f
	c.frags = append(c.frags, f)
}

func (c *collector) last() *frag {
	if len(c.frags) == 0 {
		return nil
	}
	return c.frags[len(c.frags)-1]
}

// along is how far a glyph starting at (x, y), on the baseline of next,
// stands past the pen, measured along the pen's baseline; and whether it
// stands on that baseline at all: less than a third of an em across it,
// no more than 0.6 em back, turned little from it.
func (p pen) along(next pen, x, y, size float64) (float64, bool) {
	along := (x-p.x)*p.dx + (y-p.y)*p.dy
	across := (y-p.y)*p.dx - (x-p.x)*p.dy
	return along, p.mirrored == next.mirrored && p.dx*next.dx+p.dy*next.dy >= minJoinTurn &&
		math.Abs(across) < 0.3*size && along > -0.6*size
}

// segment is a piece of a row between wide gaps.
type segment struct {
	x0, x1 float64
	size   float64
	row    int
	text   string
}

// text lays the page out and returns its lines: the frames of the page's
// axes first (upright, then turned by a quarter turn, a half and three
// quarters, then the same mirrored), then the others in the order the
// page first draws in them.
func (c *collector) text() string {
	var frames []frame
	byFrame := map[frame][]*frag{}
	for _, f := range c.frags {
		if _, seen := byFrame[f.frame]; !seen {
			frames = append(frames, f.frame)
		}
		byFrame[f.frame] = append(byFrame[f.frame], f)
	}
	rank := func(fr frame) int {
		if !fr.axial() {
			return 8
		}
		if fr.mirrored {
			return 4 + fr.tenths/900
		}
		return fr.tenths / 900
	}
	sort.SliceStable(frames, func(i, j int) bool { return rank(frames[i]) < rank(frames[j]) })
	var lines []string
	for _, fr := range frames {
		lines = append(lines, joinRows(order(segments(byFrame[fr])))...)
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
