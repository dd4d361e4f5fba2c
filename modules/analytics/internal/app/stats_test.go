package app

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pearson is the textbook two-pass correlation, independent of the
// running sums PointBiserial uses.
func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var cov, vx, vy float64
	for i := range x {
		cov += (x[i] - mx) * (y[i] - my)
		vx += (x[i] - mx) * (x[i] - mx)
		vy += (y[i] - my) * (y[i] - my)
	}
	return cov / math.Sqrt(vx*vy)
}

func sumsOf(x, y []float64) Sums {
	s := Sums{N: float64(len(x))}
	for i := range x {
		s.SumX += x[i]
		s.SumXX += x[i] * x[i]
		s.SumY += y[i]
		s.SumXY += x[i] * y[i]
	}
	return s
}

func TestPointBiserialWorkedExample(t *testing.T) {
	// Rest scores 1..4, the item right for the top two: r = 2/sqrt(5).
	got := PointBiserial(sumsOf([]float64{1, 2, 3, 4}, []float64{0, 0, 1, 1}))
	if got == nil || *got != 0.894 {
		t.Fatalf("got %v, want 0.894", got)
	}
	if PointBiserial(sumsOf([]float64{1, 2, 3}, []float64{1, 1, 1})) != nil {
		t.Error("everyone right: no spread in y, r undefined")
	}
	if PointBiserial(sumsOf([]float64{0.5, 0.5}, []float64{0, 1})) != nil {
		t.Error("everyone level on the rest: no spread in x, r undefined")
	}
	if PointBiserial(Sums{N: 1, SumY: 1, SumX: 1, SumXX: 1, SumXY: 1}) != nil {
		t.Error("one response: r undefined")
	}
}

func TestPointBiserialEqualsPearson(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		n := 2 + r.IntN(60)
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			x[i] = float64(r.IntN(20)) / 19
			if r.Float64() < x[i] {
				y[i] = 1
			}
		}
		got := PointBiserial(sumsOf(x, y))
		want := pearson(x, y)
		if math.IsNaN(want) {
			if got != nil {
				t.Fatalf("x=%v y=%v: want undefined, got %v", x, y, *got)
			}
			continue
		}
		if got == nil || math.Abs(*got-want) > 0.0006 {
			t.Fatalf("x=%v y=%v: got %v, want %.4f", x, y, got, want)
		}
	}
}

func TestRestScoreAndPercentile(t *testing.T) {
	if got := RestScore(3, 5, true); got != 0.5 {
		t.Errorf("3 of 5 right, this one right: rest 2/4, got %v", got)
	}
	if got := RestScore(3, 5, false); got != 0.75 {
		t.Errorf("3 of 5 right, this one wrong: rest 3/4, got %v", got)
	}
	if got := RestScore(1, 1, true); got != 0 {
		t.Errorf("a one-question test has no rest, got %v", got)
	}
	dist := map[int]int64{50: 2, 70: 1, 90: 1}
	if got := Percentile(dist, 70); got == nil || *got != 62.5 {
		t.Errorf("two below, one level, of four: 62.5, got %v", got)
	}
	if Percentile(map[int]int64{}, 70) != nil {
		t.Error("nobody sat it: no percentile")
	}
}
