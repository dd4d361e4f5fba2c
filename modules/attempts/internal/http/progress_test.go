package http

import (
	"encoding/json"
	"testing"
	"time"
)

// The save's answer, written by hand, is byte for byte what huma's JSON
// format (encoding/json, newline-terminated) writes for SavedResponse.
func TestSavedResponseIsEncodingJSON(t *testing.T) {
	at := time.Date(2026, 11, 27, 7, 58, 3, 123456000, time.UTC)
	for _, r := range []SavedResponse{
		{Saved: true, SavedAt: at, ExpiresAt: at.AddDate(0, 0, 7)},
		{Stale: true, SavedAt: at.Truncate(time.Second), ExpiresAt: at.Add(time.Nanosecond)},
		{Saved: true, SavedAt: at.In(time.FixedZone("", -(3*3600 + 1800))), ExpiresAt: at.In(time.FixedZone("", 5*3600+2700))},
		{Saved: true, SavedAt: at.Add(-time.Duration(at.Nanosecond()) + 100*time.Microsecond), ExpiresAt: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(r.appendJSON(nil)); got != string(want)+"\n" {
			t.Errorf("got %s want %s", got, want)
		}
	}
}
