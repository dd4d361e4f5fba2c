package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

func TestAnswerMapValueRoundTrips(t *testing.T) {
	in := AnswerMap{
		"1": `she said "MS"`,
		"2": `back\slash`,
		"3": "line\nbreak\tand\x01control",
		"4": "ünïcødé — \u2028 and 🫀",
		"5": "",
		"6": "<b>&amp;</b>",
	}
	v, err := in.Value()
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]string
	if err := json.Unmarshal([]byte(v.(string)), &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, v)
	}
	if !reflect.DeepEqual(map[string]string(in), out) {
		t.Fatalf("round trip changed the map:\n in %q\nout %q", in, out)
	}
	if v, _ := AnswerMap(nil).Value(); v != "{}" {
		t.Fatalf("nil map: %v", v)
	}
}

// fitBatch writes what encoding/json would: every row's fields read back
// exactly, hostile text included; text that is not UTF-8 (which no decode
// lets through) is an error, not a guess.
func TestFitBatchIsTheJSONOfTheRows(t *testing.T) {
	hostile := []string{`she said "MS"`, `back\slash`, `\u0000 as text`, "line\nbreak\r\tand\x01\x1f\x7fcontrol",
		"ünïcødé — \u2028\u2029 and 🫀", "", "<b>&amp;</b>", `{"answers":"x"}`,
		strings.Repeat("é", 1000)}
	mode, voice, left, total, rev := "timed", hostile[1], 0.1+0.2, 1e21, int64(1<<53+1)
	at := time.Date(0, 1, 1, 0, 0, 0, 123000, time.UTC)
	saves := []*FitSave{{Progress: &Progress{AttemptID: 1, UserID: 2, QuizID: 3, CurrentIdx: 4, Device: hostile[0],
		Mode: &mode, Voice: &voice, TimeLeft: &left, TotalTime: &total, StartedAt: &at, Revision: &rev,
		Answers: AnswerMap{}, Flagged: []int64{10, 11, 1 << 62}}}, {Progress: &Progress{AttemptID: 5, Answers: AnswerMap{}, Flagged: []int64{}}},
		{Progress: &Progress{AttemptID: 6, Answers: AnswerMap{"7": "a", "10": "é"}}, AnswersJSON: `{ "7":"a", "10" : "é" }`}}
	for i, s := range hostile {
		saves[0].Progress.Answers[fmt.Sprint(i+10)] = s
		saves[0].Progress.Answers[s] = s
	}
	got, err := fitBatch(saves)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		AttemptID  int64             `json:"attempt_id"`
		UserID     int64             `json:"user_id"`
		QuizID     int64             `json:"quiz_id"`
		Answers    map[string]string `json:"answers"`
		CurrentIdx int               `json:"current_idx"`
		Mode       *string           `json:"mode"`
		Voice      *string           `json:"voice"`
		TimeLeft   *float64          `json:"time_left"`
		StartedAt  *int64            `json:"started_at"`
		TotalTime  *float64          `json:"total_time"`
		Device     string            `json:"device"`
		Revision   *int64            `json:"revision"`
		Flagged    []int64           `json:"flagged"`
	}
	var want []row
	for _, f := range saves {
		p := f.Progress
		r := row{AttemptID: p.AttemptID, UserID: p.UserID, QuizID: p.QuizID,
			Answers: p.Answers, CurrentIdx: p.CurrentIdx, Mode: p.Mode, Voice: p.Voice, TimeLeft: p.TimeLeft,
			TotalTime: p.TotalTime, Device: p.Device, Revision: p.Revision, Flagged: p.Flagged}
		if p.StartedAt != nil {
			us := p.StartedAt.UnixMicro()
			r.StartedAt = &us
		}
		want = append(want, r)
	}
	wantJSON, _ := json.Marshal(want)
	var a, b []map[string]any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	d := json.NewDecoder(strings.NewReader(string(wantJSON)))
	d.UseNumber()
	_ = d.Decode(&b)
	d = json.NewDecoder(strings.NewReader(got))
	d.UseNumber()
	_ = d.Decode(&a)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("fitBatch:\n%s\nencoding/json:\n%s", got, wantJSON)
	}
	// Each row's answers come in jsonb's key order (shorter keys first,
	// then bytewise), so Postgres finds them sorted.
	var rows []struct{ Answers json.RawMessage }
	if err := json.Unmarshal([]byte(got), &rows); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		d := jsontext.NewDecoder(bytes.NewReader(r.Answers))
		if _, err := d.ReadToken(); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for d.PeekKind() == '"' {
			k, err := d.ReadToken()
			if err != nil {
				t.Fatal(err)
			}
			if n := len(keys); n > 0 && (len(keys[n-1]) > len(k.String()) ||
				len(keys[n-1]) == len(k.String()) && keys[n-1] >= k.String()) {
				t.Errorf("row %d: key %q after %q", i, k.String(), keys[n-1])
			}
			keys = append(keys, k.String())
			if err := d.SkipValue(); err != nil {
				t.Fatal(err)
			}
		}
		if len(keys) != len(saves[i].Progress.Answers) {
			t.Errorf("row %d: %d keys, want %d", i, len(keys), len(saves[i].Progress.Answers))
		}
	}
	for _, bad := range []func(p *Progress){
		func(p *Progress) { p.Device = "bad \xff\xfe utf-8 \xe2\x82" },
		func(p *Progress) { p.Answers["7"] = "\xe2\x82" },
		func(p *Progress) { p.Answers["\xff"] = "x" },
		func(p *Progress) { v := "\xff"; p.Voice = &v },
	} {
		p := Progress{AttemptID: 9, Answers: AnswerMap{}}
		bad(&p)
		if _, err := fitBatch([]*FitSave{{Progress: &p}}); err == nil {
			t.Errorf("text that is not UTF-8 was written: %+v", p)
		}
	}
	inf := math.Inf(1)
	saves[1].Progress.TimeLeft = &inf
	if _, err := fitBatch(saves); err == nil {
		t.Fatal("an infinite time_left was written")
	}
}
