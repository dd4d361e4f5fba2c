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
)

// TestProgressBodyOnce: the autosave body decoded once answers exactly
// what huma's two-pass decode of the same fields answered (status and
// envelope) for every body, and for an accepted one the same values. The
// one difference is meant: a whole number written with a fraction or an
// exponent (2.0, 1e3) is an integer to the schema, and is now accepted.
func TestProgressBodyOnce(t *testing.T) {
	_, api := humatest.New(t)
	type plain ProgressFields // the same fields without the one-pass decode
	type out struct{ Body plain }
	huma.Register(api, huma.Operation{Method: http.MethodPost, Path: "/twice"},
		func(_ context.Context, i *struct{ Body plain }) (*out, error) { return &out{Body: i.Body}, nil })
	huma.Register(api, huma.Operation{Method: http.MethodPost, Path: "/once", SkipValidateBody: true},
		func(_ context.Context, i *struct{ Body ProgressFields }) (*out, error) {
			return &out{Body: plain(i.Body)}, nil
		})
	wholeWithFraction := map[string]plain{
		`{"quiz_id":1,"attempt_id":2,"current_idx":2.0}`: {QuizID: 1, AttemptID: 2, CurrentIdx: 2},
		`{"quiz_id":1e3,"attempt_id":2}`:                 {QuizID: 1000, AttemptID: 2},
	}

	long := strings.Repeat("é", 32)
	bodies := []string{
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
	}
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
