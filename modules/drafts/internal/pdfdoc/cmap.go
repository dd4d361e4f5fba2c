package pdfdoc

import (
	"sort"
	"unicode/utf16"
)

// cmap is a parsed CMap: a ToUnicode map (codes to text) or a Type0
// font's encoding (codes to CIDs), kept as ranges, never expanded (a
// single range can cover four billion codes).
type cmap struct {
	space  []codeRange
	text   map[uint64]string
	ranges []textRange
	cids   []cidRange
}

type codeRange struct {
	lo, hi uint32
	n      int
}

type textRange struct {
	lo, hi uint32
	n      int
	base   []uint16 // UTF-16 of the first code's text
	each   []string // or one text per code (array form)
}

type cidRange struct {
	lo, hi, cid uint32
	n           int
}

// key makes codes of different byte lengths distinct.
func key(code uint32, n int) uint64 { return uint64(n)<<32 | uint64(code) }

func codeOf(s string) (uint32, int) {
	var v uint32
	for i := 0; i < len(s) && i < 4; i++ {
		v = v<<8 | uint32(s[i])
	}
	return v, min(len(s), 4)
}

// parseCMap reads the CMap operators that matter for text: codespace
// ranges, bfchar/bfrange (ToUnicode) and cidchar/cidrange (encodings).
func parseCMap(data []byte) *cmap {
	m := &cmap{text: map[uint64]string{}}
	lx := &lexer{b: data, maxArgs: 4096}
	var mode string
	var pending []operand
	lx.each(func(op string, args []operand) bool {
		switch op {
		case "begincodespacerange", "beginbfchar", "beginbfrange", "begincidchar", "begincidrange":
			mode, pending = op, nil
		case "endcodespacerange", "endbfchar", "endbfrange", "endcidchar", "endcidrange":
			pending = append(pending, args...)
			m.add(mode, pending)
			mode, pending = "", nil
		default:
			if mode != "" {
				// Operands of a section arrive before its end operator;
				// an unknown word inside one splits them, so keep them.
				pending = append(pending, args...)
			}
		}
		return true
	})
	sort.Slice(m.space, func(i, j int) bool { return m.space[i].n < m.space[j].n })
	return m
}

func (m *cmap) add(mode string, a []operand) {
	switch mode {
	case "begincodespacerange":
		for i := 0; i+1 < len(a); i += 2 {
			lo, n := codeOf(a[i].str)
			hi, n2 := codeOf(a[i+1].str)
			if n > 0 && n == n2 {
				m.space = append(m.space, codeRange{lo, hi, n})
			}
		}
	case "beginbfchar":
		for i := 0; i+1 < len(a); i += 2 {
			code, n := codeOf(a[i].str)
			if n == 0 {
				continue
			}
			if a[i+1].kind == '/' {
				m.text[key(code, n)] = glyphText(a[i+1].str)
			} else {
				m.text[key(code, n)] = utf16Text(a[i+1].str)
			}
		}
	case "beginbfrange":
		for i := 0; i+2 < len(a); i += 3 {
			lo, n := codeOf(a[i].str)
			hi, n2 := codeOf(a[i+1].str)
			if n == 0 || n != n2 || hi < lo {
				continue
			}
			r := textRange{lo: lo, hi: hi, n: n}
			switch dst := a[i+2]; dst.kind {
			case 's':
				r.base = utf16Units(dst.str)
			case '[':
				for _, d := range dst.arr {
					r.each = append(r.each, utf16Text(d.str))
				}
			default:
				continue
			}
			m.ranges = append(m.ranges, r)
		}
	case "begincidchar":
		for i := 0; i+1 < len(a); i += 2 {
			code, n := codeOf(a[i].str)
			if n > 0 {
				m.cids = append(m.cids, cidRange{code, code, uint32(a[i+1].num), n})
			}
		}
	case "begincidrange":
		for i := 0; i+2 < len(a); i += 3 {
			lo, n := codeOf(a[i].str)
			hi, n2 := codeOf(a[i+1].str)
			if n > 0 && n == n2 && hi >= lo {
				m.cids = append(m.cids, cidRange{lo, hi, uint32(a[i+2].num), n})
			}
		}
	}
}

// next splits the first code off s by the codespace ranges (one byte
// when none match, as readers do).
func (m *cmap) next(s string) (code uint32, n int) {
	for _, r := range m.space {
		if r.n > len(s) {
			continue
		}
		c, _ := codeOf(s[:r.n])
		if c >= r.lo && c <= r.hi {
			return c, r.n
		}
	}
	if len(m.space) > 0 && m.space[0].n <= len(s) {
		c, _ := codeOf(s[:m.space[0].n])
		return c, m.space[0].n
	}
	c, _ := codeOf(s[:1])
	return c, 1
}

// lookup is the text of a code, and whether the map has it.
func (m *cmap) lookup(code uint32, n int) (string, bool) {
	if t, ok := m.text[key(code, n)]; ok {
		return t, true
	}
	for _, r := range m.ranges {
		if r.n != n || code < r.lo || code > r.hi {
			continue
		}
		off := code - r.lo
		if r.each != nil {
			if int(off) < len(r.each) {
				return r.each[off], true
			}
			return "", false
		}
		if len(r.base) == 0 {
			return "", true
		}
		u := append([]uint16(nil), r.base...)
		u[len(u)-1] += uint16(off)
		return string(utf16.Decode(u)), true
	}
	return "", false
}

// cid is the CID a code selects; ok is false when the map has none.
func (m *cmap) cid(code uint32, n int) (uint32, bool) {
	for _, r := range m.cids {
		if r.n == n && code >= r.lo && code <= r.hi {
			return r.cid + code - r.lo, true
		}
	}
	return 0, false
}

func utf16Units(s string) []uint16 {
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return u
}

func utf16Text(s string) string { return string(utf16.Decode(utf16Units(s))) }
