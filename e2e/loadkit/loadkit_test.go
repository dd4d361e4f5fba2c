package loadkit

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var l []time.Duration
	for i := 1; i <= 100; i++ {
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{.5, 51 * time.Millisecond}, {.99, 100 * time.Millisecond}, {1, 100 * time.Millisecond}, {0, time.Millisecond}} {
		if got := Percentile(l, c.p); got != c.want {
			t.Errorf("Percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if Percentile(nil, .5) != 0 {
		t.Error("no latencies have no percentile")
	}
	if got := Millis(1500 * time.Microsecond); got != "1.5 ms" {
		t.Errorf("Millis = %q", got)
	}
}
