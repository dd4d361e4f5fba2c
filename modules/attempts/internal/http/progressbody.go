package http

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/httpapi"
)

// POST /attempts/progress is the hottest write, and huma decodes a body
// twice (into any for the schema check, then into the struct). The route
// skips huma's check (SkipValidateBody), and the API's JSON format hands
// the bytes straight to DecodeBody (httpapi.BodyDecoder): the usual save is
// read in one pass (readProgress, progressread.go); any other body takes
// UnmarshalJSON, which decodes into any once, checks it against its own
// schema exactly as huma checks it (httpapi.BodyCheck) and copies the
// checked values field by field. A body the schema refuses gets the same
// 422 as before, through Resolve.

var progressCheck = httpapi.NewBodyCheck[ProgressFields]()

// DecodeBody reads the body once when readProgress takes it, and as
// before otherwise (encoding/json, which refuses malformed JSON first).
func (f *ProgressFields) DecodeBody(b []byte) error {
	if readProgress(b, f) {
		return nil
	}
	*f = ProgressFields{}
	return json.Unmarshal(b, f)
}

// TextChecked reports that readProgress read the body, so no string in it
// has a NUL byte or bytes that are not UTF-8 (httpapi's text check skips it).
func (f *ProgressFields) TextChecked() bool { return f.textChecked }

// UnmarshalJSON decodes the body once (encoding/json has already refused
// malformed JSON by then). What the copy cannot take exactly is left to
// the plain struct decode, which answers it as before: a key in another
// letter case (huma's check and encoding/json both accept it), a number a
// float64 cannot carry exactly (from 2^53 on, or a fraction where an
// integer goes) and a date-time string time.Time does not parse.
func (f *ProgressFields) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if errs := progressCheck.Check(v); len(errs) > 0 {
		*f = ProgressFields{invalid: errs}
		return nil
	}
	if f.from(v.(map[string]any)) {
		return nil
	}
	type plain ProgressFields // without this method
	*f = ProgressFields{}
	return json.Unmarshal(b, (*plain)(f))
}

// Resolve answers what the schema refused (huma reports it as its own
// validation failure).
func (f *ProgressFields) Resolve(huma.Context) []error { return f.invalid }

// from fills f from a checked body (so every value has the schema's type);
// false when a value needs the plain decode.
func (f *ProgressFields) from(m map[string]any) bool {
	*f = ProgressFields{}
	for k := range m {
		if !progressKeys[k] {
			return false
		}
	}
	ok := true
	wholeOf := func(key string) (int64, bool) {
		x, _ := m[key].(float64)
		if x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			ok = false
		}
		return int64(x), m[key] != nil
	}
	f.QuizID, _ = wholeOf("quiz_id")
	f.AttemptID, _ = wholeOf("attempt_id")
	idx, _ := wholeOf("current_idx")
	f.CurrentIdx = int(idx)
	if n, set := wholeOf("revision"); set {
		f.Revision = &n
	}
	if ids, set := m["flagged"].([]any); set {
		f.Flagged = make([]int64, len(ids))
		for i, x := range ids {
			n, _ := x.(float64)
			if n != math.Trunc(n) || math.Abs(n) >= 1<<53 {
				ok = false
			}
			f.Flagged[i] = int64(n)
		}
	}
	if a, set := m["answers"].(map[string]any); set {
		f.Answers = make(map[string]string, len(a))
		for k, x := range a {
			f.Answers[k] = x.(string)
		}
	}
	f.Mode, f.Voice = stringOf(m["mode"]), stringOf(m["voice"])
	f.TimeLeft, f.TotalTime = floatOf(m["time_left"]), floatOf(m["total_time"])
	if s, set := m["started_at"].(string); set {
		var t time.Time
		if t.UnmarshalText([]byte(s)) != nil {
			return false
		}
		f.StartedAt = &t
	}
	return ok
}

// progressKeys are ProgressFields' keys as its json tags spell them.
var progressKeys = func() map[string]bool {
	keys := map[string]bool{}
	for f := range reflect.TypeFor[ProgressFields]().Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && f.IsExported() {
			keys[name] = true
		}
	}
	return keys
}()

func stringOf(v any) *string {
	if s, ok := v.(string); ok {
		return &s
	}
	return nil
}

func floatOf(v any) *float64 {
	if x, ok := v.(float64); ok {
		return &x
	}
	return nil
}
