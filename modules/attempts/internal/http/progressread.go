package http

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// readProgress reads the usual autosave body into f in one pass over the
// bytes (jsontext's streaming decoder, the tokenizer of encoding/json/v2):
// no validity scan before it, no tree of generic values after it. It
// takes only what it can judge exactly as the schema and the two-pass
// decode judge it, and reports false for anything else (f is then
// undefined), which DecodeBody hands to the old path to accept or refuse
// as before: a key it does not know or sees twice, a NUL in a string,
// bytes that are not UTF-8 or a lone surrogate escape (jsontext refuses
// them), null where the schema has no null, a sign, fraction or exponent
// where an integer goes, a number out of the schema's bounds, a date-time
// either parser refuses, malformed JSON. What it accepts has no NUL byte
// and is valid UTF-8, so the text check need not walk it again.
func readProgress(b []byte, f *ProgressFields) bool {
	*f = ProgressFields{}
	r := progressReaders.Get().(*progressReader)
	defer progressReaders.Put(r)
	d := r.reading(b)
	if t, err := d.ReadToken(); err != nil || t.Kind() != '{' {
		return false
	}
	var seen [len(progressFieldNames)]bool
	for d.PeekKind() == '"' {
		key, ok := text(d)
		if !ok {
			return false
		}
		i := fieldIndex(key)
		if i < 0 || seen[i] {
			return false
		}
		seen[i] = true
		switch progressFieldNames[i] {
		case "quiz_id":
			f.QuizID, ok = whole(d, 1, maxWhole)
		case "attempt_id":
			f.AttemptID, ok = whole(d, 1, maxWhole)
		case "current_idx":
			var n int64
			n, ok = whole(d, 0, 100000)
			f.CurrentIdx = int(n)
		case "revision":
			if !null(d) {
				var n int64
				n, ok = whole(d, 0, maxWhole)
				f.Revision = &n
			}
		case "answers":
			f.Answers, f.answersJSON, ok = answers(d, b)
		case "mode":
			f.Mode, ok = optText(d, 32)
		case "voice":
			f.Voice, ok = optText(d, 200)
		case "time_left":
			f.TimeLeft, ok = optFloat(d)
		case "total_time":
			f.TotalTime, ok = optFloat(d)
		case "started_at":
			f.StartedAt, ok = optTime(d)
		case "flagged":
			f.Flagged, ok = optIDs(d, 1000)
		}
		if !ok {
			return false
		}
	}
	if t, err := d.ReadToken(); err != nil || t.Kind() != '}' {
		return false
	}
	if _, err := d.ReadToken(); err != io.EOF { // nothing but space after the object
		return false
	}
	f.textChecked = true
	return seen[0] && seen[1] // quiz_id and attempt_id are required
}

// progressReader is a decoder kept between saves (a fresh one allocates
// its buffers).
type progressReader struct {
	src bytes.Reader
	dec jsontext.Decoder
}

var progressReaders = sync.Pool{New: func() any { return new(progressReader) }}

// reading points the decoder at b. Duplicate names are the old path's to
// judge at the body's top level (readProgress sees them); in answers the
// last one wins, as encoding/json decodes a map.
func (r *progressReader) reading(b []byte) *jsontext.Decoder {
	r.src.Reset(b)
	r.dec.Reset(&r.src, jsontext.AllowDuplicateNames(true))
	return &r.dec
}

// progressFieldNames are the body's keys, required ones first.
var progressFieldNames = [...]string{"quiz_id", "attempt_id", "answers", "current_idx", "mode", "voice",
	"time_left", "started_at", "total_time", "revision", "flagged"}

func fieldIndex(key string) int {
	for i, name := range progressFieldNames {
		if key == name {
			return i
		}
	}
	return -1
}

// maxWhole bounds the integers taken: 15 digits, below 2^53, where a
// float64 (the schema check's number) is still exact.
const maxWhole = 999_999_999_999_999

func null(d *jsontext.Decoder) bool {
	if d.PeekKind() != 'n' {
		return false
	}
	_, err := d.ReadToken()
	return err == nil
}

// text reads a string with no NUL in it.
func text(d *jsontext.Decoder) (string, bool) {
	if d.PeekKind() != '"' {
		return "", false
	}
	v, err := d.ReadValue()
	if err != nil {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 { // JSON has no raw control character in a string: no NUL either
		return string(v[1 : len(v)-1]), true
	}
	u, err := jsontext.AppendUnquote(nil, v)
	return string(u), err == nil && bytes.IndexByte(u, 0) < 0
}

// number reads a number's text, not negative (no field takes one).
func number(d *jsontext.Decoder) ([]byte, bool) {
	if d.PeekKind() != '0' {
		return nil, false
	}
	v, err := d.ReadValue()
	return v, err == nil && v[0] != '-'
}

// whole reads an integer in [lo, hi] written as bare digits.
func whole(d *jsontext.Decoder, lo, hi int64) (int64, bool) {
	v, ok := number(d)
	if !ok || len(v) > 15 || bytes.ContainsAny(v, ".eE") {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil && n >= lo && n <= hi
}

// optFloat reads null or a number, parsed as encoding/json parses it.
func optFloat(d *jsontext.Decoder) (*float64, bool) {
	if null(d) {
		return nil, true
	}
	v, ok := number(d)
	if !ok {
		return nil, false
	}
	x, err := strconv.ParseFloat(string(v), 64)
	return &x, err == nil
}

// optText reads null or a string of at most max characters.
func optText(d *jsontext.Decoder, max int) (*string, bool) {
	if null(d) {
		return nil, true
	}
	s, ok := text(d)
	return &s, ok && utf8.RuneCountInString(s) <= max
}

// optIDs reads null or an array of at most max integers (an empty array
// is not nil: it clears the flags, where null keeps them). Whether each
// is a question id is the service's to judge, as for the old path.
func optIDs(d *jsontext.Decoder, max int) ([]int64, bool) {
	if null(d) {
		return nil, true
	}
	if t, err := d.ReadToken(); err != nil || t.Kind() != '[' {
		return nil, false
	}
	ids := []int64{}
	for d.PeekKind() == '0' {
		n, ok := whole(d, 0, maxWhole)
		if !ok || len(ids) == max {
			return nil, false
		}
		ids = append(ids, n)
	}
	t, err := d.ReadToken()
	return ids, err == nil && t.Kind() == ']'
}

// optTime reads null or a date-time that both the schema's check (RFC
// 3339, with or without fractions) and time.Time's own decode accept.
func optTime(d *jsontext.Decoder) (*time.Time, bool) {
	if null(d) {
		return nil, true
	}
	s, ok := text(d)
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
// When the object's text stands for the map exactly and in jsonb's own key
// order: every string plain (no escape) and every key after the one
// before it, shorter first, then bytewise (so none repeats), which is how
// a browser writes question ids, it hands back that text and no map (the
// save's statement takes the text as it is: store.FitSave.AnswersJSON).
// Otherwise it reads the object again into a map.
func answers(d *jsontext.Decoder, body []byte) (map[string]string, string, bool) {
	if t, err := d.ReadToken(); err != nil || t.Kind() != '{' {
		return nil, "", false
	}
	open := d.InputOffset() - 1
	// The key before, copied (a value read is good until the next read).
	// An id has at most 19 digits: a longer key is not kept in order.
	var prev [24]byte
	ordered, prevLen := true, -1
	for d.PeekKind() == '"' {
		k, err := d.ReadValue() // a name: a string
		if err != nil {
			return nil, "", false
		}
		k = k[1 : len(k)-1]
		ordered = ordered && len(k) <= len(prev) && bytes.IndexByte(k, '\\') < 0 &&
			(prevLen < len(k) || prevLen == len(k) && bytes.Compare(prev[:prevLen], k) < 0)
		prevLen = copy(prev[:], k)
		v, err := d.ReadValue()
		if err != nil || v[0] != '"' {
			return nil, "", false
		}
		ordered = ordered && bytes.IndexByte(v, '\\') < 0
	}
	t, err := d.ReadToken()
	if err != nil || t.Kind() != '}' {
		return nil, "", false
	}
	end := d.InputOffset()
	if open < 0 || body[open] != '{' || body[end-1] != '}' {
		return nil, "", false // never (InputOffset says where a value ends); the old path would read it
	}
	if ordered {
		return nil, string(body[open:end]), true // a copy: the body's buffer goes back to its pool
	}
	m, ok := answerMap(body[open:end])
	return m, "", ok
}

// answerMap reads an object of strings that answers has found well formed
// into a map (the last of a repeated key wins, as encoding/json has it).
func answerMap(object []byte) (map[string]string, bool) {
	r := progressReaders.Get().(*progressReader)
	defer progressReaders.Put(r)
	d := r.reading(object)
	if _, err := d.ReadToken(); err != nil {
		return nil, false
	}
	m := make(map[string]string, 16)
	for d.PeekKind() == '"' {
		k, ok := text(d)
		if !ok {
			return nil, false
		}
		v, ok := text(d)
		if !ok {
			return nil, false
		}
		m[k] = v
	}
	return m, true
}
