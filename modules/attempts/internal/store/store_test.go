package store

import (
	"encoding/json"
	"reflect"
	"testing"
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
