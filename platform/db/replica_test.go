package db

import (
	"testing"
	"time"
)

func TestLSNReadsPostgresText(t *testing.T) {
	for _, s := range []string{"0/0", "0/16B3748", "16/B374D848", "FFFFFFFF/FFFFFFFF"} {
		l, err := ParseLSN(s)
		if err != nil || l.String() != s {
			t.Errorf("ParseLSN(%q) = %v (%s), %v", s, uint64(l), l, err)
		}
	}
	if a, b := mustLSN(t, "0/FFFFFFFF"), mustLSN(t, "1/0"); a >= b {
		t.Errorf("0/FFFFFFFF must come before 1/0")
	}
	for _, bad := range []string{"", "/", "1/", "/1", "x/1", "1/x", "100000000/0", "0/100000000", "1-2", " 1/2"} {
		if _, err := ParseLSN(bad); err == nil {
			t.Errorf("ParseLSN(%q) accepted", bad)
		}
	}
}

func mustLSN(t *testing.T, s string) LSN {
	l, err := ParseLSN(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The lag is bounded by the time since the newest check whose primary
// position the replica has replayed; a replica that has replayed none of
// the positions kept (found behind at start-up, or stalled past maxLag)
// has no known lag, so it answers nothing.
func TestReplicaLagFromSamples(t *testing.T) {
	r := &replica{maxLag: 10 * time.Second}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	expect := func(s int, primary, replayed LSN, want time.Duration, wantKnown bool) {
		t.Helper()
		if lag, known := r.record(at(s), primary, replayed); lag != want || known != wantKnown {
			t.Fatalf("at %ds (primary %d, replayed %d): lag %s known %v, want %s %v", s, primary, replayed, lag, known, want, wantKnown)
		}
	}
	expect(0, 100, 50, 0, false) // behind at the first check: how far is not known
	expect(1, 100, 80, 0, false)
	expect(2, 200, 100, time.Second, true) // shows what was committed by 1s, not by 2s
	expect(3, 200, 200, 0, true)
	expect(4, 300, 250, time.Second, true)
	// Replay stops at 250 while the primary moves on: the lag grows with
	// the time since the check at 3s, exactly until it passes maxLag.
	for s := 5; s <= 13; s++ {
		expect(s, LSN(300+s), 250, time.Duration(s-3)*time.Second, true)
	}
	// Past maxLag the check at 3s is kept as the newest older one, so the
	// replica still reads as too far behind; then it is dropped, unknown.
	expect(14, 400, 250, 11*time.Second, true)
	for s := 15; s <= 30; s++ {
		r.record(at(s), LSN(400+s), 250)
	}
	expect(31, 500, 250, 0, false)
	if n := len(r.samples); n > 12 {
		t.Fatalf("%d samples kept for a 10s window of one a second", n)
	}
	expect(32, 500, 500, 0, true) // caught up again
}
