package srs

import (
	"math/rand/v2"
	"testing"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

var start = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// history replays random ratings at random moments at or after each due
// date, calling step for every review.
func history(rng *rand.Rand, n int, step func(c fsrs.Card, r fsrs.Rating, now time.Time) fsrs.Card) {
	c, now := fsrs.NewCard(), start
	for range n {
		r := fsrs.Rating(rng.IntN(4) + 1)
		c = step(c, r, now)
		// Review on time, a little early, or after a long break.
		next := c.Due
		switch rng.IntN(4) {
		case 0:
			next = next.Add(time.Duration(rng.IntN(90*24)) * time.Hour)
		case 1:
			if early := next.Add(-time.Duration(rng.IntN(48)) * time.Hour); early.After(now) {
				next = early
			}
		}
		now = next.Add(time.Minute)
	}
}

func TestWithoutExamOrLoadIntervalsEqualGoFSRS(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		retention := 0.75 + rng.Float64()*0.2
		p := fsrs.DefaultParam()
		p.RequestRetention = retention
		ref := fsrs.NewFSRS(p)
		history(rng, 30, func(c fsrs.Card, r fsrs.Rating, now time.Time) fsrs.Card {
			want := ref.Next(c, now, r)
			got, log, err := Review(c, r, now, Options{Retention: retention, FinalPassDays: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got != want.Card || log != want.ReviewLog {
				t.Fatalf("at %v rating %v:\n got  %+v\n want %+v", now, r, got, want.Card)
			}
			return got
		})
	}
}

func TestNoDueDateAfterTheExam(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		exam := start.Add(time.Duration(rng.IntN(400*24)) * time.Hour)
		final := rng.IntN(7) + 1
		load := func(lo, hi int) ([]int, error) {
			out := make([]int, hi-lo+1)
			for i := range out {
				out[i] = rng.IntN(50)
			}
			return out, nil
		}
		o := Options{Retention: 0.7 + rng.Float64()*0.29, Exam: exam, FinalPassDays: final, Load: load}
		history(rng, 40, func(c fsrs.Card, r fsrs.Rating, now time.Time) fsrs.Card {
			got, _, err := Review(c, r, now, o)
			if err != nil {
				t.Fatal(err)
			}
			if now.Before(exam) && got.Due.After(exam) {
				t.Fatalf("reviewed %v before the exam %v, due %v after it", now, exam, got.Due)
			}
			if got.Due.Before(now) {
				t.Fatalf("due %v before the review %v", got.Due, now)
			}
			return got
		})
	}
}

func TestFinalPassIsSpreadOverTheDaysBeforeTheExam(t *testing.T) {
	c := fsrs.Card{State: fsrs.Review, Stability: 200, Difficulty: 5, LastReview: start.Add(-100 * Day), Due: start, Reps: 5}
	exam := start.Add(10*Day + time.Hour) // days 1..10 lie before it
	days := map[int]int{}
	busy := map[int]int{10: 5, 9: 1} // day 8 is free
	for range 3 {
		got, _, err := Review(c, fsrs.Good, start, Options{Retention: 0.9, Exam: exam, FinalPassDays: 3,
			Load: func(lo, hi int) ([]int, error) {
				out := make([]int, hi-lo+1)
				for k := lo; k <= hi; k++ {
					out[k-lo] = busy[k] + days[k]
				}
				return out, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		k := int(got.ScheduledDays)
		if !got.Due.Equal(start.Add(time.Duration(k)*Day)) || k < 8 || k > 10 {
			t.Fatalf("due on day %d (%v), want within the final pass 8..10", k, got.Due)
		}
		days[k]++
	}
	if days[8] != 2 || days[9] != 1 {
		t.Fatalf("final pass days %v, want the least loaded each time (8, then 8 or 9)", days)
	}
}

func TestLeastLoadedDayWithinTheFuzzRange(t *testing.T) {
	c := fsrs.Card{State: fsrs.Review, Stability: 30, Difficulty: 5, LastReview: start.Add(-30 * Day), Due: start, Reps: 5}
	plain, _, _ := Review(c, fsrs.Good, start, Options{Retention: 0.9})
	want := int(plain.ScheduledDays)
	lo, hi := fuzzRange(float64(want), 30, 36500)
	if lo >= hi {
		t.Fatalf("no fuzz range around %d", want)
	}
	got, _, err := Review(c, fsrs.Good, start, Options{Retention: 0.9, Load: func(l, h int) ([]int, error) {
		if l != lo || h != hi {
			t.Fatalf("asked load %d..%d, want %d..%d", l, h, lo, hi)
		}
		out := make([]int, h-l+1)
		for i := range out {
			out[i] = 10
		}
		out[0] = 3 // the earliest day is the quietest
		return out, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if int(got.ScheduledDays) != lo || !got.Due.Equal(start.Add(time.Duration(lo)*Day)) {
		t.Fatalf("chose day %d, want the least loaded %d", got.ScheduledDays, lo)
	}
}
