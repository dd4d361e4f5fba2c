package http

import (
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// readProgress reads the usual autosave body into f in one pass over the
// bytes: no validity scan before it, no tree of generic values after it.
// It takes only what it can judge exactly as the schema and the two-pass
// decode judge it, and reports false for anything else (f is then
// undefined), which DecodeBody hands to the old path to accept or refuse
// as before: a key it does not know or sees twice, a key or string with
// an escape it leaves alone (\u0000, surrogates), bytes that are not
// UTF-8, null where the schema has no null, a sign, fraction or exponent
// where an integer goes, a number out of the schema's bounds, a date-time
// either parser refuses, malformed JSON. What it accepts has no NUL byte
// and is valid UTF-8, so the text check need not walk it again.
func readProgress(b []byte, f *ProgressFields) bool {
	*f = ProgressFields{}
	r := jsonReader{b: b}
	if !r.skip('{') {
		return false
	}
	var seen [len(progressFieldNames)]bool
	for {
		key, ok := r.key()
		if !ok || !r.skip(':') {
			return false
		}
		i := fieldIndex(key)
		if i < 0 || seen[i] {
			return false
		}
		seen[i] = true
		switch progressFieldNames[i] {
		case "quiz_id":
			f.QuizID, ok = r.whole(1, maxWhole)
		case "attempt_id":
			f.AttemptID, ok = r.whole(1, maxWhole)
		case "current_idx":
			var n int64
			n, ok = r.whole(0, 100000)
			f.CurrentIdx = int(n)
		case "revision":
			if !r.null() {
				var n int64
				n, ok = r.whole(0, maxWhole)
				f.Revision = &n
			}
		case "answers":
			f.Answers, ok = r.answers()
		case "mode":
			f.Mode, ok = r.optText(32)
		case "voice":
			f.Voice, ok = r.optText(200)
		case "time_left":
			f.TimeLeft, ok = r.optFloat()
		case "total_time":
			f.TotalTime, ok = r.optFloat()
		case "started_at":
			f.StartedAt, ok = r.optTime()
		}
		if !ok {
			return false
		}
		if r.skip('}') {
			break
		}
		if !r.skip(',') {
			return false
		}
	}
	r.space()
	f.textChecked = true
	return r.i == len(b) && seen[0] && seen[1] // quiz_id and attempt_id are required
}

// progressFieldNames are the body's keys, required ones first.
var progressFieldNames = [...]string{"quiz_id", "attempt_id", "answers", "current_idx", "mode", "voice",
	"time_left", "started_at", "total_time", "revision"}

func fieldIndex(key []byte) int {
	for i, name := range progressFieldNames {
		if string(key) == name {
			return i
		}
	}
	return -1
}

// maxWhole bounds the integers taken: 15 digits, below 2^53, where a
// float64 (the schema check's number) is still exact.
const maxWhole = 999_999_999_999_999

// jsonReader reads JSON tokens from b at i; every method skips the
// whitespace before its token and reports false for what it does not take.
type jsonReader struct {
	b []byte
	i int
}

func (r *jsonReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// skip consumes c when it is the next token.
func (r *jsonReader) skip(c byte) bool {
	r.space()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

func (r *jsonReader) null() bool {
	r.space()
	if len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "null" {
		r.i += 4
		return true
	}
	return false
}

// key reads an object key without escapes, as the bytes of b.
func (r *jsonReader) key() ([]byte, bool) {
	if !r.skip('"') {
		return nil, false
	}
	start := r.i
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start : r.i-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		r.i++
	}
	return nil, false
}

// text reads a string: UTF-8, no NUL, no surrogate escapes.
func (r *jsonReader) text() (string, bool) {
	if !r.skip('"') {
		return "", false
	}
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		if c == '"' {
			s := r.b[start:r.i]
			r.i++
			return string(s), utf8.Valid(s)
		}
		if c == '\\' {
			return r.escaped(start)
		}
		if c < 0x20 {
			return "", false
		}
		r.i++
	}
	return "", false
}

// escaped finishes a string from its first backslash, copying.
func (r *jsonReader) escaped(start int) (string, bool) {
	out := append(make([]byte, 0, r.i-start+16), r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			return string(out), utf8.Valid(out)
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.b) {
			return "", false
		}
		e := r.b[r.i+1]
		r.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if r.i+4 > len(r.b) {
				return "", false
			}
			n, err := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16)
			if err != nil || n == 0 || utf16.IsSurrogate(rune(n)) {
				return "", false
			}
			out = utf8.AppendRune(out, rune(n))
			r.i += 4
		default:
			return "", false
		}
	}
	return "", false
}

// whole reads an integer in [lo, hi] written as bare digits.
func (r *jsonReader) whole(lo, hi int64) (int64, bool) {
	r.space()
	start := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	digits := r.b[start:r.i]
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) || r.numberGoesOn() {
		return 0, false
	}
	var n int64
	for _, d := range digits {
		n = n*10 + int64(d-'0')
	}
	return n, n >= lo && n <= hi
}

// numberGoesOn reports a fraction, an exponent or more digits ahead.
func (r *jsonReader) numberGoesOn() bool {
	if r.i >= len(r.b) {
		return false
	}
	switch r.b[r.i] {
	case '.', 'e', 'E', '-', '+':
		return true
	}
	return false
}

// optFloat reads null or a number that is not negative (the schema's
// minimum 0), parsed as encoding/json parses it.
func (r *jsonReader) optFloat() (*float64, bool) {
	if r.null() {
		return nil, true
	}
	r.space()
	start := r.i
	digits := func() int {
		n := 0
		for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	if n := digits(); n == 0 || (n > 1 && r.b[start] == '0') {
		return nil, false
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	x, err := strconv.ParseFloat(string(r.b[start:r.i]), 64)
	return &x, err == nil
}

// optText reads null or a string of at most max characters.
func (r *jsonReader) optText(max int) (*string, bool) {
	if r.null() {
		return nil, true
	}
	s, ok := r.text()
	return &s, ok && utf8.RuneCountInString(s) <= max
}

// optTime reads null or a date-time that both the schema's check (RFC
// 3339, with or without fractions) and time.Time's own decode accept.
func (r *jsonReader) optTime() (*time.Time, bool) {
	if r.null() {
		return nil, true
	}
	s, ok := r.text()
	if !ok {
		return nil, false
	}
	var t time.Time
	if t.UnmarshalText([]byte(s)) != nil {
		return nil, false
	}
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		return nil, false
	}
	return &t, true
}

// answers reads an object of strings (not null: the schema has none).
func (r *jsonReader) answers() (map[string]string, bool) {
	if !r.skip('{') {
		return nil, false
	}
	m := make(map[string]string, 16)
	if r.skip('}') {
		return m, true
	}
	for {
		k, ok := r.text()
		if !ok || !r.skip(':') {
			return nil, false
		}
		v, ok := r.text()
		if !ok {
			return nil, false
		}
		m[k] = v
		if r.skip('}') {
			return m, true
		}
		if !r.skip(',') {
			return nil, false
		}
	}
}
