package app

import "math"

// Sums are the running sums of one item (or one option of it) over the
// sittings counted: n responses, y the item right (or the option chosen),
// x the rest-of-test score.
type Sums struct {
	N, SumY            float64
	SumX, SumXX, SumXY float64
}

// PointBiserial is the correlation between y (0 or 1) and x: how well the
// item separates those who did well on the rest of the test from those who
// did not. nil when it is undefined (fewer than two responses, or no
// spread in x or y).
func PointBiserial(s Sums) *float64 {
	if s.N < 2 {
		return nil
	}
	// y is 0 or 1, so Σy² = Σy.
	varX := s.N*s.SumXX - s.SumX*s.SumX
	varY := s.N*s.SumY - s.SumY*s.SumY
	if varX <= 1e-12 || varY <= 1e-12 {
		return nil
	}
	r := (s.N*s.SumXY - s.SumX*s.SumY) / math.Sqrt(varX*varY)
	r = math.Round(r*1000) / 1000
	return &r
}

// RestScore is the share of the sitting's other questions answered right
// (0 when the item is the only one).
func RestScore(score, total int, correct bool) float64 {
	if total < 2 {
		return 0
	}
	if correct {
		score--
	}
	return float64(score) / float64(total-1)
}

// Percentile is the mid-rank percentile of score among the sittings
// (percent -> how many): those below, plus half of those level.
func Percentile(dist map[int]int64, score int) *float64 {
	var below, level, all int64
	for p, n := range dist {
		all += n
		switch {
		case p < score:
			below += n
		case p == score:
			level += n
		}
	}
	if all == 0 {
		return nil
	}
	v := math.Round(1000*(float64(below)+float64(level)/2)/float64(all)) / 10
	return &v
}
