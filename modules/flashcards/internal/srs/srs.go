// Package srs wraps go-fsrs with the two choices this service adds:
// an exam date that caps every interval so the card's last review falls
// before it, and a least-loaded day within FSRS's fuzz range instead of
// a random one.
//
// The exam rule: with an exam E ahead, a review whose FSRS due date would
// fall on or after E is moved into the final pass, the last
// FinalPassDays whole days before E (never earlier than tomorrow), on the
// least-loaded of those days. A card reviewed in the final pass at the
// learner's retention is then seen for the last time within a few days of
// E, so its recall on the day stays near that retention. With less than a
// day left, the card is due at E itself. With no exam, or once it has
// passed, FSRS alone decides, except that among the days of its fuzz range
// the least-loaded one wins (ties: the day FSRS chose, then the earlier).
package srs

import (
	"math"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// Day is the length of a scheduling day.
const Day = 24 * time.Hour

// DefaultRetention is the desired retention when a learner has set none.
const DefaultRetention = 0.9

// Options are a learner's scheduling choices for one review.
type Options struct {
	Retention     float64   // desired retention, 0.7 to 0.99
	Exam          time.Time // zero: no exam
	FinalPassDays int       // ≥ 1
	// Load gives how many of the learner's cards are already due on each
	// day offset lo..hi from now (day k: due within half a day of
	// now+k·Day), len hi-lo+1. Nil means no load is known (all days equal).
	Load func(lo, hi int) ([]int, error)
}

// params are go-fsrs's defaults at the learner's retention, with fuzz off
// (the day is chosen here instead).
func params(retention float64) fsrs.Parameters {
	p := fsrs.DefaultParam()
	p.RequestRetention = retention
	p.EnableFuzz = false
	return p
}

// Review applies a rating to a card at now and gives its next state and the
// review log go-fsrs writes.
func Review(c fsrs.Card, r fsrs.Rating, now time.Time, o Options) (fsrs.Card, fsrs.ReviewLog, error) {
	p := params(o.Retention)
	info := fsrs.NewFSRS(p).Next(c, now, r)
	next := info.Card
	ivl := int(next.ScheduledDays)

	lo, hi := ivl, ivl
	if ivl >= 3 { // go-fsrs fuzzes intervals from 2.5 days
		lo, hi = fuzzRange(float64(ivl), float64(next.ElapsedDays), p.MaximumInterval)
		// go-fsrs may go past its maximum to keep Easy after Good; its own
		// day always stays a candidate.
		lo, hi = min(lo, ivl), max(hi, ivl)
	}
	if !o.Exam.IsZero() && o.Exam.After(now) {
		last := lastDayBefore(now, o.Exam)
		switch {
		case next.Due.Before(o.Exam) && hi <= last:
			// Seen again before the exam anyway.
		case last < 1:
			next.Due, next.ScheduledDays = o.Exam, 0
			return next, info.ReviewLog, nil
		case !next.Due.Before(o.Exam):
			lo, hi = max(1, last-max(o.FinalPassDays, 1)+1), last
		default:
			hi = last
		}
	}
	if ivl < 1 && hi < 1 {
		return next, info.ReviewLog, nil // a learning step in minutes
	}
	k, err := leastLoaded(lo, hi, ivl, o.Load)
	if err != nil {
		return fsrs.Card{}, fsrs.ReviewLog{}, err
	}
	if k != ivl {
		next.Due, next.ScheduledDays = now.Add(time.Duration(k)*Day), uint64(k)
	}
	return next, info.ReviewLog, nil
}

// lastDayBefore is the largest k with now + k·Day strictly before exam.
func lastDayBefore(now, exam time.Time) int {
	return int(math.Ceil(float64(exam.Sub(now))/float64(Day))) - 1
}

// leastLoaded picks the day in lo..hi with the fewest cards due; ties go
// to the one nearest want, then the earlier.
func leastLoaded(lo, hi, want int, load func(lo, hi int) ([]int, error)) (int, error) {
	counts := make([]int, hi-lo+1)
	if load != nil && hi > lo {
		var err error
		if counts, err = load(lo, hi); err != nil {
			return 0, err
		}
	}
	best := lo
	for k := lo + 1; k <= hi; k++ {
		c, b := counts[k-lo], counts[best-lo]
		if c < b || (c == b && abs(k-want) < abs(best-want)) {
			best = k
		}
	}
	return best, nil
}

// fuzzRange is go-fsrs's (unexported) fuzz range for an interval, from its
// exported FUZZ_RANGES.
func fuzzRange(interval, elapsedDays, maximum float64) (int, int) {
	delta := 1.0
	for _, r := range fsrs.FUZZ_RANGES {
		delta += r.Factor * math.Max(math.Min(interval, r.End)-r.Start, 0)
	}
	interval = math.Min(interval, maximum)
	lo := math.Max(2, math.Round(interval-delta))
	hi := math.Min(math.Round(interval+delta), maximum)
	if interval > elapsedDays {
		lo = math.Max(lo, elapsedDays+1)
	}
	lo = math.Min(lo, hi)
	return int(lo), int(hi)
}

// Curve gives the forgetting curve's constants, R = (1 + factor·t/S)^decay
// with t in days, for ordering by retrievability in SQL.
func Curve() (factor, decay float64) {
	p := fsrs.DefaultParam()
	return p.Factor, p.Decay
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
