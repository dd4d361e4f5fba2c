package http

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/roundsedu/rounds/platform/httpapi"
)

// TestProgressBodyOnce: the autosave body decoded once (through the API's
// JSON format: readProgress, or UnmarshalJSON for what it leaves) answers
// exactly what huma's two-pass decode of the same fields answered (status
// and envelope) for every body, and for an accepted one the same values.
// The one difference is meant: a whole number written with a fraction or
// an exponent (2.0, 1e3) is an integer to the schema, and is now accepted.
func TestProgressBodyOnce(t *testing.T) {
	cfg := huma.DefaultConfig("t", "1")
	cfg.Formats = httpapi.Formats
	_, api := humatest.New(t, cfg)
	type plain ProgressFields // the same fields without the one-pass decode
	type out struct{ Body plain }
	huma.Register(api, huma.Operation{Method: http.MethodPost, Path: "/twice"},
		func(_ context.Context, i *struct{ Body plain }) (*out, error) { return &out{Body: i.Body}, nil })
	huma.Register(api, huma.Operation{Method: http.MethodPost, Path: "/once", SkipValidateBody: true},
		func(_ context.Context, i *struct{ Body ProgressFields }) (*out, error) {
			b := i.Body
			if b.answersJSON != "" { // the answers travel as this text alone
				if err := json.Unmarshal([]byte(b.answersJSON), &b.Answers); err != nil {
					return nil, err
				}
			}
			return &out{Body: plain(b)}, nil
		})
	wholeWithFraction := map[string]plain{
		`{"quiz_id":1,"attempt_id":2,"current_idx":2.0}`: {QuizID: 1, AttemptID: 2, CurrentIdx: 2},
		`{"quiz_id":1e3,"attempt_id":2}`:                 {QuizID: 1000, AttemptID: 2},
		`{"quiz_id":1,"attempt_id":2,"flagged":[2.0]}`:   {QuizID: 1, AttemptID: 2, Flagged: []int64{2}},
	}

	bodies := progressBodies()
	for b, want := range wholeWithFraction {

		bodies = append(bodies, b)
		if res := api.Post("/twice", strings.NewReader(b)); res.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s: the two-pass decode answered %d", b, res.Code)
		}
		res := api.Post("/once", strings.NewReader(b))
		var got plain
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != http.StatusOK || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d %s, want %+v", b, res.Code, res.Body, want)
		}
	}
	for _, b := range bodies {
		if _, ok := wholeWithFraction[b]; ok {
			continue
		}
		twice := api.Post("/twice", strings.NewReader(b))
		once := api.Post("/once", strings.NewReader(b))
		if twice.Code != once.Code || twice.Body.String() != once.Body.String() {
			t.Errorf("%s:\n twice %d %s\n once  %d %s", b, twice.Code, twice.Body, once.Code, once.Body)
		}
	}
}

// progressBodies are autosave bodies the schema accepts and refuses, and
// ones readProgress must leave to the old path.
func progressBodies() []string {
	long := strings.Repeat("é", 32)
	return []string{
		`{"quiz_id":1,"attempt_id":2}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"10":"Bravo","11":"<&>"},"current_idx":3,"mode":"timed","voice":null,` +
			`"time_left":12.5,"started_at":"2026-11-26T18:00:00.123+02:00","total_time":0,"revision":1764180000000}`,
		`{"quiz_id":1,"attempt_id":2,"mode":"` + long + `","voice":"` + strings.Repeat("v", 200) + `","revision":null}`,
		`{"attempt_id":2}`, `{"quiz_id":0,"attempt_id":2}`, `{"quiz_id":"1","attempt_id":2}`,
		`{"quiz_id":1.5,"attempt_id":2}`, `{"quiz_id":1e20,"attempt_id":2}`, `{"quiz_id":9007199254740993,"attempt_id":2}`,
		`{"quiz_id":1,"attempt_id":2,"extra":true}`, `{"QUIZ_ID":1,"attempt_id":2}`,
		`{"quiz_id":1,"attempt_id":2,"answers":null}`, `{"quiz_id":1,"attempt_id":2,"answers":{"1":2}}`,
		`{"quiz_id":1,"attempt_id":2,"current_idx":-1}`, `{"quiz_id":1,"attempt_id":2,"current_idx":100001}`,
		`{"quiz_id":1,"attempt_id":2,"current_idx":null}`,
		`{"quiz_id":1,"attempt_id":2,"mode":"` + long + `x"}`, `{"quiz_id":1,"attempt_id":2,"time_left":-1}`,
		`{"quiz_id":1,"attempt_id":2,"started_at":"yesterday"}`, `{"quiz_id":1,"attempt_id":2,"started_at":"2026-13-01T00:00:00Z"}`,
		`{"quiz_id":1,"attempt_id":2,"revision":-1}`, `{"quiz_id":1,"attempt_id":2,"revision":1.25}`,
		`{"quiz_id":1,"attempt_id":2,"quiz_id":3}`, `null`, `[]`, `7`, `{}`, `{`, `{"quiz_id":1,"attempt_id":2}x`,
		// What readProgress reads itself, and what it leaves to the old path.
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a","10":"b","11":"c","100":"d"}}`, // jsonb's order: text kept
		`{"quiz_id":1,"attempt_id":2,"answers":{"10":"b","9":"a"}}`,                    // not: the map is written out
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a","9":"b"}}`, `{"quiz_id":1,"attempt_id":2,"answers":{"9":"a\"b"}}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a","1\u0030":"b"}}`,
		" {\t\"quiz_id\" : 1 ,\n\"attempt_id\":2\r, \"answers\" : { \"3\" : \"a\" , \"4\":\"\" } } ",
		`{"quiz_id":1,"attempt_id":2,"answers":{}}`, `{"quiz_id":1,"attempt_id":2,"answers":{"5":"x","5":"y"}}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"6":"q\"b\\s\/\b\f\n\r\t\u00e9\u20AC🎉 end"}}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"6":"\ud83c\udf89"}}`, `{"quiz_id":1,"attempt_id":2,"answers":{"6":"\ud83c"}}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"6":"nul\u0000"}}`, `{"quiz_id":1,"attempt_id":2,"answers":{"6":"\x"}}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"6":"\u12"}}`, "{\"quiz_id\":1,\"attempt_id\":2,\"answers\":{\"6\":\"bad\xff\"}}",
		"{\"quiz_id\":1,\"attempt_id\":2,\"answers\":{\"6\":\"tab\there\"}}", `{"quiz_id":1,"attempt_id":2,"answers":{"\u0036":"k"}}`,
		`{"quiz_id":1,"attempt_id":2,"answers":{"6":"a",}}`, `{"quiz_id":1,"attempt_id":2,"answers":["a"]}`,
		`{"quiz_id":1,"attempt_id":2,}`, `{"quiz_id":01,"attempt_id":2}`, `{"quiz_id":-1,"attempt_id":2}`,
		`{"quiz_id":1,"attempt_id":999999999999999}`, `{"quiz_id":1,"attempt_id":1000000000000000}`,
		`{"quiz_id":1,"attempt_id":2,"current_idx":100000,"revision":0}`,
		`{"quiz_id":1,"attempt_id":2,"time_left":0.5e-3,"total_time":1E+2}`, `{"quiz_id":1,"attempt_id":2,"time_left":1e400}`,
		`{"quiz_id":1,"attempt_id":2,"time_left":-0}`, `{"quiz_id":1,"attempt_id":2,"time_left":.5}`,
		`{"quiz_id":1,"attempt_id":2,"time_left":1.}`, `{"quiz_id":1,"attempt_id":2,"time_left":00.5}`,
		`{"quiz_id":1,"attempt_id":2,"time_left":null,"total_time":null,"started_at":null,"mode":null}`,
		`{"quiz_id":1,"attempt_id":2,"started_at":"2026-11-26T18:00:00Z"}`, `{"quiz_id":1,"attempt_id":2,"started_at":"2026-11-26t18:00:00z"}`,
		`{"quiz_id":1,"attempt_id":2,"started_at":"2026-11-26T18:00:00.123456789123Z"}`, `{"quiz_id":1,"attempt_id":2,"started_at":"0000-01-01T00:00:00Z"}`,
		`{"quiz_id":1,"attempt_id":2,"started_at":"2026-11-26 18:00:00Z"}`, `{"quiz_id":1,"attempt_id":2,"started_at":"2026-11-26T24:00:00Z"}`,
		`{"quiz_id":1,"attempt_id":2,"mode":"` + long + `é"}`, `{"quiz_id":1,"attempt_id":2,"mode":"\u00e9` + long[2:] + `"}`,
		`{"quiz_id":1,"attempt_id":2,"mode":7}`, `{"quiz_id":1,"attempt_id":2,"voice":nul}`, `{"quiz_id":1,"attempt_id":2,"voice":nulll}`,
		`{"quiz_id":1,"attempt_id":2,"revision":nan}`, `{"quiz_id":1,"attempt_id":2,"revision":true}`,
		`{"quiz_id":1,"attempt_id":2} {}`, `{"quiz_id":1,"attempt_id":2`, `{"quiz_id":1 "attempt_id":2}`, ``, ` `,
		`{"quiz_id":1,"attempt_id":2,"quiz_id\u0000":3}`, `{"quiz_id\"":1,"attempt_id":2}`,
		// Flags: null keeps, [] clears, ids are the service's to judge.
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a"},"flagged":[9,10,11]}`, `{"quiz_id":1,"attempt_id":2,"flagged":[]}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":null}`, `{"quiz_id":1,"attempt_id":2,"flagged":[ 0 , 7 ]}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":[-3]}`, `{"quiz_id":1,"attempt_id":2,"flagged":[1.5]}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":["9"]}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":[9,]}`, `{"quiz_id":1,"attempt_id":2,"flagged":{"9":true}}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":[9007199254740993]}`, `{"quiz_id":1,"attempt_id":2,"flagged":[null]}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":[1],"flagged":[2]}`, `{"quiz_id":1,"attempt_id":2,"flagged":9}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":[` + strings.Repeat("5,", 999) + `5]}`,
		`{"quiz_id":1,"attempt_id":2,"flagged":[` + strings.Repeat("5,", 1000) + `5]}`,
	}
}

// readProgress takes a body only when the old path accepts it with the
// same values, so every answer it gives is the old one.
func TestReadProgressAgrees(t *testing.T) {
	read := 0
	for _, b := range progressBodies() {
		if sameAsBefore(t, []byte(b)) {
			read++
		}
	}
	if read < 15 {
		t.Errorf("readProgress read %d of the bodies; the usual ones must not take the old path", read)
	}
}

// The answers' own text is kept for the statement exactly when it is in
// jsonb's key order with no escape (what a browser sends); else the map is
// written out.
func TestAnswersTextKept(t *testing.T) {
	for body, kept := range map[string]bool{
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a","10":"b","11":"c","100":"d"}}`: true,
		`{"quiz_id":1,"attempt_id":2,"answers": { "9" : "a" }, "current_idx":1}`:       true,
		`{"quiz_id":1,"attempt_id":2,"answers":{}}`:                                    true,
		`{"quiz_id":1,"attempt_id":2,"answers":{"10":"b","9":"a"}}`:                    false,
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a","9":"b"}}`:                     false,
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a\"b"}}`:                          false,
		`{"quiz_id":1,"attempt_id":2,"answers":{"9":"a","1\u0030":"b"}}`:               false,
		`{"quiz_id":1,"attempt_id":2}`:                                                 false,
	} {
		var f ProgressFields
		if !readProgress([]byte(body), &f) {
			t.Fatalf("%s: not read", body)
		}
		if (f.answersJSON != "") != kept {
			t.Errorf("%s: answers text %q", body, f.answersJSON)
		}
		sameAsBefore(t, []byte(body))
	}
}

func FuzzReadProgress(f *testing.F) {
	for _, b := range progressBodies() {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameAsBefore(t, b) })
}

// sameAsBefore checks readProgress against the old decode of b and
// reports whether readProgress took it.
func sameAsBefore(t *testing.T, b []byte) bool {
	t.Helper()
	var fast, old ProgressFields
	if !readProgress(b, &fast) {
		return false
	}
	if err := json.Unmarshal(b, &old); err != nil || old.invalid != nil {
		t.Errorf("%q: readProgress took it, the old decode refused it: %v %v", b, err, old.invalid)
		return true
	}
	if !fast.textChecked {
		t.Errorf("%q: taken without the text mark", b)
	}
	fast.textChecked = false
	if fast.answersJSON != "" {
		// The answers' text stands for the map (not built), exactly, keys
		// in jsonb's order and every string plain.
		if fast.Answers != nil {
			t.Errorf("%q: answers text %q and a map %v", b, fast.answersJSON, fast.Answers)
		}
		if err := json.Unmarshal([]byte(fast.answersJSON), &fast.Answers); err != nil || strings.Contains(fast.answersJSON, `\`) {
			t.Errorf("%q: answers text %q: %v", b, fast.answersJSON, err)
		}
		d := jsontext.NewDecoder(strings.NewReader(fast.answersJSON))
		_, _ = d.ReadToken() // {
		for prev := ""; d.PeekKind() == '"'; {
			tok, _ := d.ReadToken()
			if k := tok.String(); prev != "" && !(len(prev) < len(k) || len(prev) == len(k) && prev < k) {
				t.Errorf("%q: key %q after %q in the answers text", b, k, prev)
			}
			prev = tok.String()
			_ = d.SkipValue()
		}
		fast.answersJSON = ""
	}
	if !reflect.DeepEqual(fast, old) {
		t.Errorf("%q:\n read %+v\n old  %+v", b, fast, old)
	}
	return true
}
