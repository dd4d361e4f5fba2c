package pdfdoc

import (
	"bytes"
	"strconv"
)

// operand is one value of a content stream: a number, a string (raw
// bytes), a name, an array or a dictionary. Content streams are the
// file's own program, so the lexer is forgiving the way readers are: a
// stray delimiter is skipped, an unterminated string or array ends at the
// end of the stream, and an inline image's bytes are skipped whole.
type operand struct {
	kind byte // 'n' number, 's' string, '/' name, '[' array, '<' dictionary, 'k' keyword (true, false, null)
	num  float64
	str  string // string bytes, name, or keyword
	arr  []operand
	dict map[string]operand
}

func (o operand) number() float64 { return o.num }

// maxNesting bounds arrays and dictionaries inside arrays: real content
// nests one or two levels; deeper is a file built to exhaust the stack.
const maxNesting = 32

// maxOperands bounds the operands kept before an operator: no operator
// takes more than six, except the few that take an array; a stream of
// numbers with no operator must not grow a list for ever.
const maxOperands = 64

// lexer reads one content stream.
type lexer struct {
	b   []byte
	pos int
	// maxArgs overrides maxOperands (CMaps list a hundred pairs before
	// their operator).
	maxArgs int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '%':
			for l.pos < len(l.b) && l.b[l.pos] != '\n' && l.b[l.pos] != '\r' {
				l.pos++
			}
		default:
			return
		}
	}
}

// each calls do for every operator with its operands, until the stream
// ends or do returns false.
func (l *lexer) each(do func(op string, args []operand) bool) {
	args := make([]operand, 0, 8)
	limit := maxOperands
	if l.maxArgs > 0 {
		limit = l.maxArgs
	}
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return
		}
		c := l.b[l.pos]
		if c == ')' || c == '>' || c == ']' || c == '}' || c == '{' {
			l.pos++ // stray delimiter: skip it
			continue
		}
		if isDelim(c) || c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9') {
			if v, ok := l.value(0); ok {
				if len(args) == limit {
					args = append(args[:0], args[1:]...)
				}
				args = append(args, v)
			}
			continue
		}
		word := l.word()
		switch word {
		case "true", "false", "null":
			args = append(args, operand{kind: 'k', str: word})
			continue
		case "BI":
			l.skipInlineImage()
			if !do("BI", nil) {
				return
			}
			args = args[:0]
			continue
		}
		if !do(word, args) {
			return
		}
		args = args[:0]
	}
}

// word reads a run of regular characters (an operator or keyword).
func (l *lexer) word() string {
	start := l.pos
	for l.pos < len(l.b) && !isSpace(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
		l.pos++
	}
	if l.pos == start {
		l.pos++ // a byte that starts nothing: skip it
	}
	return string(l.b[start:l.pos])
}

// value reads one operand at the current position; false when what is
// there is not one (it has been skipped).
func (l *lexer) value(depth int) (operand, bool) {
	l.skipSpace()
	if l.pos >= len(l.b) {
		return operand{}, false
	}
	switch c := l.b[l.pos]; {
	case c == '(':
		return operand{kind: 's', str: l.literal()}, true
	case c == '<' && l.pos+1 < len(l.b) && l.b[l.pos+1] == '<':
		l.pos += 2
		return l.dictionary(depth)
	case c == '<':
		return operand{kind: 's', str: l.hex()}, true
	case c == '/':
		return operand{kind: '/', str: l.name()}, true
	case c == '[':
		l.pos++
		return l.array(depth)
	case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
		return l.number()
	default:
		w := l.word()
		if w == "true" || w == "false" || w == "null" {
			return operand{kind: 'k', str: w}, true
		}
		return operand{}, false
	}
}

func (l *lexer) number() (operand, bool) {
	start := l.pos
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		if !(c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9')) {
			break
		}
		l.pos++
	}
	s := string(l.b[start:l.pos])
	// Writers emit "--5" and "5-3"; readers take the leading sign and
	// digits they can.
	for len(s) > 1 && (s[0] == '-' || s[0] == '+') && (s[1] == '-' || s[1] == '+') {
		s = s[1:]
	}
	if i := bytes.IndexAny([]byte(s[1:]), "+-"); i >= 0 {
		s = s[:i+1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if s == "-" || s == "+" || s == "." || s == "-." {
			return operand{kind: 'n'}, true
		}
		return operand{}, false
	}
	return operand{kind: 'n', num: f}, true
}

func (l *lexer) name() string {
	l.pos++ // '/'
	var out []byte
	for l.pos < len(l.b) && !isSpace(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
		c := l.b[l.pos]
		if c == '#' && l.pos+2 < len(l.b) {
			if v, err := strconv.ParseUint(string(l.b[l.pos+1:l.pos+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				l.pos += 3
				continue
			}
		}
		out = append(out, c)
		l.pos++
	}
	return string(out)
}

// literal reads a (string) with its escapes and balanced parentheses.
func (l *lexer) literal() string {
	l.pos++ // '('
	var out []byte
	depth := 1
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return string(out)
			}
		case '\\':
			if l.pos >= len(l.b) {
				return string(out)
			}
			e := l.b[l.pos]
			l.pos++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r':
				if l.pos < len(l.b) && l.b[l.pos] == '\n' {
					l.pos++
				}
			case '\n':
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v := int(e - '0')
				for i := 0; i < 2 && l.pos < len(l.b) && l.b[l.pos] >= '0' && l.b[l.pos] <= '7'; i++ {
					v = v*8 + int(l.b[l.pos]-'0')
					l.pos++
				}
				out = append(out, byte(v))
			default:
				out = append(out, e)
			}
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// hex reads a <hex string>; an odd final digit is followed by 0.
func (l *lexer) hex() string {
	l.pos++ // '<'
	var out []byte
	var hi byte
	half := false
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			continue // whitespace and junk are ignored
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		out = append(out, hi<<4)
	}
	return string(out)
}

func (l *lexer) array(depth int) (operand, bool) {
	arr := operand{kind: '['}
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return arr, true
		}
		if l.b[l.pos] == ']' {
			l.pos++
			return arr, true
		}
		if depth >= maxNesting {
			l.skipNested('[', ']')
			return arr, true
		}
		start := l.pos
		if v, ok := l.value(depth + 1); ok {
			arr.arr = append(arr.arr, v)
		} else if l.pos == start {
			l.pos++
		}
	}
}

func (l *lexer) dictionary(depth int) (operand, bool) {
	d := operand{kind: '<', dict: map[string]operand{}}
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return d, true
		}
		if l.b[l.pos] == '>' {
			l.pos++
			if l.pos < len(l.b) && l.b[l.pos] == '>' {
				l.pos++
			}
			return d, true
		}
		if depth >= maxNesting {
			l.skipNested('<', '>')
			return d, true
		}
		if l.b[l.pos] != '/' {
			start := l.pos
			if _, ok := l.value(depth + 1); !ok && l.pos == start {
				l.pos++
			}
			continue
		}
		key := l.name()
		if v, ok := l.value(depth + 1); ok {
			d.dict[key] = v
		}
	}
}

// skipNested skips to the end of a structure nested too deep to keep.
func (l *lexer) skipNested(open, close byte) {
	depth := 1
	for l.pos < len(l.b) && depth > 0 {
		switch l.b[l.pos] {
		case open:
			depth++
		case close:
			depth--
		}
		l.pos++
	}
}

// skipInlineImage skips BI <dict> ID <bytes> EI. The image's bytes are
// binary; they end at an EI that stands alone between whitespace (or at
// the end of the stream), as readers find it.
func (l *lexer) skipInlineImage() {
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return
		}
		if l.b[l.pos] == 'I' && l.pos+1 < len(l.b) && l.b[l.pos+1] == 'D' &&
			(l.pos+2 == len(l.b) || isSpace(l.b[l.pos+2])) {
			l.pos += 3
			break
		}
		start := l.pos
		if _, ok := l.value(0); !ok && l.pos == start {
			l.pos++
		}
	}
	for l.pos < len(l.b) {
		i := bytes.Index(l.b[l.pos:], []byte("EI"))
		if i < 0 {
			l.pos = len(l.b)
			return
		}
		at := l.pos + i
		before := at == 0 || isSpace(l.b[at-1])
		after := at+2 == len(l.b) || isSpace(l.b[at+2]) || isDelim(l.b[at+2])
		l.pos = at + 2
		if before && after {
			return
		}
	}
}
