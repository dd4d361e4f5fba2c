package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
)

// ChartDays is how far ahead the due chart looks.
const ChartDays = 30

// IntervalBounds are the lower bounds (days since the previous review) of
// the true-retention buckets; StabilityBounds those (days) of the
// stability spread. The first bucket starts at 0.
var (
	IntervalBounds  = []float64{0, 2, 4, 8, 15, 31, 91}
	StabilityBounds = []float64{0, 1, 3, 7, 14, 30, 90, 180, 365}
)

// DueDay is one day of the due chart: the started cards due then by state,
// and the new cards the daily allowance would introduce.
type DueDay struct {
	Day                   time.Time
	New, Learning, Review int
}

// Bucket is one bucket of a spread, from Lower days to Upper (nil: open).
type Bucket struct {
	Lower  float64
	Upper  *float64
	N      int
	Passed int
}

// CardCharts is what the flashcards statistics screen draws.
type CardCharts struct {
	Due       []DueDay
	Unseen    int
	NewPerDay int
	Retention []Bucket
	Stability []Bucket
}

// CardCharts reads the caller's flashcard statistics across the decks they
// may study: cards due per day over ChartDays days from today (overdue
// ones today), true retention by interval and the stability spread.
//
// A new card has no due date: the chart shows the ones the queue would
// introduce, new_per_day a day (today what is left of it) until the unseen
// cards within reach run out, as the queue serves them.
func (s *Service) CardCharts(ctx context.Context, p auth.Principal) (*CardCharts, error) {
	r, err := s.reach(ctx, p)
	if err != nil {
		return nil, err
	}
	today := startOfDay(time.Now())
	days, err := s.store.DueDays(ctx, p.UserID, r, today, today.AddDate(0, 0, ChartDays))
	if err != nil {
		return nil, err
	}
	unseen, err := s.store.Unseen(ctx, p.UserID, r)
	if err != nil {
		return nil, err
	}
	_, fresh, err := s.store.ReviewedSince(ctx, p.UserID, 0, today)
	if err != nil {
		return nil, err
	}
	out := &CardCharts{Unseen: unseen, NewPerDay: s.cfg.NewPerDay}
	out.Due = dueDays(days, today, unseen, max(0, s.cfg.NewPerDay-fresh), s.cfg.NewPerDay)
	retention, err := s.store.RetentionByInterval(ctx, p.UserID, IntervalBounds[1:])
	if err != nil {
		return nil, err
	}
	out.Retention = buckets(IntervalBounds, retention)
	stability, err := s.store.StabilitySpread(ctx, p.UserID, r, StabilityBounds[1:])
	if err != nil {
		return nil, err
	}
	out.Stability = buckets(StabilityBounds, stability)
	return out, nil
}

// dueDays lays the counted days over every day of the chart and adds the
// new cards introduced: room today, perDay after, until unseen run out.
func dueDays(counted []store.DueDay, today time.Time, unseen, room, perDay int) []DueDay {
	byDay := make(map[time.Time]store.DueDay, len(counted))
	for _, d := range counted {
		byDay[d.Day.UTC()] = d
	}
	out := make([]DueDay, ChartDays)
	for i := range out {
		day := today.AddDate(0, 0, i)
		c := byDay[day]
		fresh := min(unseen, room)
		unseen -= fresh
		room = perDay
		out[i] = DueDay{Day: day, New: c.New + fresh, Learning: c.Learning, Review: c.Review}
	}
	return out
}

// buckets gives every bucket of the bounds, empty ones too.
func buckets(lower []float64, counted []store.Bucket) []Bucket {
	out := make([]Bucket, len(lower))
	for i, lo := range lower {
		out[i].Lower = lo
		if i+1 < len(lower) {
			out[i].Upper = &lower[i+1]
		}
	}
	for _, c := range counted {
		out[c.Bucket].N, out[c.Bucket].Passed = c.N, c.Passed
	}
	return out
}
