package anki_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards"
	. "github.com/roundsedu/rounds/modules/interchange/internal/anki"
)

func ptr[T any](v T) *T { return &v }

// TestScheduleRoundTrip: a written package reads back with each card's
// state and reviews, review due dates on their day (Anki keeps no time of
// day for them), learning steps to the second, review times to the ms.
func TestScheduleRoundTrip(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	d := 24 * time.Hour
	review := Schedule{Ord: 0, State: flashcards.CardState{State: 2, Due: now.Add(10 * d), Stability: 11.25,
		Difficulty: 4.5, ElapsedDays: 3, ScheduledDays: 10, Reps: 3, Lapses: 1, LastReview: ptr(now.Add(-time.Hour))},
		Reviews: []flashcards.CardReview{
			{Rating: 3, State: 0, ReviewedAt: now.Add(-4 * d), DurationMs: ptr(4200)},
			{Rating: 1, State: 2, ElapsedDays: 0, ScheduledDays: 0, ReviewedAt: now.Add(-4*d + time.Minute)},
			{Rating: 4, State: 3, ElapsedDays: 3, ScheduledDays: 10, ReviewedAt: now.Add(-time.Hour), DurationMs: ptr(900)}}}
	learning := Schedule{Ord: 1, State: flashcards.CardState{State: 1, Due: now.Add(10 * time.Minute).Truncate(time.Second),
		Stability: 0, Difficulty: 0, Reps: 1, LastReview: ptr(now)},
		Reviews: []flashcards.CardReview{{Rating: 3, State: 0, ReviewedAt: now}}}
	relearn := Schedule{Ord: 1, State: flashcards.CardState{State: 3, Due: now.Add(2 * d), Stability: 1.5,
		Difficulty: 9, ScheduledDays: 2, Reps: 9, Lapses: 4, LastReview: ptr(now)}}
	notes := []Note{
		{Item: 1, Type: Basic, Front: "Mitral valve", Back: "between LA and LV", Schedules: []Schedule{review}},
		{Item: 2, Type: Reversed, Front: "Tachycardia", Back: "HR > 100", Schedules: []Schedule{learning}},
		{Item: 3, Type: Cloze, Front: "The {{c1::aorta}} leaves the {{c2::LV}}", Schedules: []Schedule{relearn}},
	}
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, Latest, "Cardiology", notes, nil); err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), buf.Bytes(), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Notes) != 3 {
		t.Fatalf("notes %+v", got.Notes)
	}
	for i, n := range got.Notes {
		if len(n.Schedules) != 1 {
			t.Fatalf("note %d: schedules %+v", i+1, n.Schedules)
		}
		want, sc := notes[i].Schedules[0], n.Schedules[0]
		ws, gs := want.State, sc.State
		if sc.Ord != want.Ord || gs.State != ws.State || gs.Reps != ws.Reps || gs.Lapses != ws.Lapses ||
			gs.ScheduledDays != ws.ScheduledDays || !gs.LastReview.Equal(ws.LastReview.Truncate(time.Second)) {
			t.Errorf("note %d: got %+v, want %+v", i+1, gs, ws)
		}
		if ws.Stability > 0 && (gs.Stability != ws.Stability || gs.Difficulty != ws.Difficulty) {
			t.Errorf("note %d: memory state %v/%v, want %v/%v", i+1, gs.Stability, gs.Difficulty, ws.Stability, ws.Difficulty)
		}
		if ws.Stability == 0 && (gs.Stability != 1 || gs.Difficulty != 5) { // none written: the estimate
			t.Errorf("note %d: estimated memory state %v/%v", i+1, gs.Stability, gs.Difficulty)
		}
		if ws.ScheduledDays == 0 && !gs.Due.Equal(ws.Due) {
			t.Errorf("note %d: learning step due %v, want %v", i+1, gs.Due, ws.Due)
		}
		if ws.ScheduledDays > 0 && !gs.Due.Equal(ws.Due.Truncate(d)) {
			t.Errorf("note %d: due %v, want the day of %v", i+1, gs.Due, ws.Due)
		}
		if len(sc.Reviews) != len(want.Reviews) {
			t.Fatalf("note %d: reviews %+v", i+1, sc.Reviews)
		}
		for j, r := range sc.Reviews {
			w := want.Reviews[j]
			if r.Rating != w.Rating || r.State != w.State || r.ScheduledDays != w.ScheduledDays ||
				r.ElapsedDays != w.ElapsedDays || !r.ReviewedAt.Equal(w.ReviewedAt) || (w.DurationMs == nil) != (r.DurationMs == nil) ||
				(w.DurationMs != nil && *r.DurationMs != *w.DurationMs) {
				t.Errorf("note %d review %d: got %+v, want %+v", i+1, j, r, w)
			}
		}
	}
}

// TestHostileSchedule: scheduling the database cannot hold (a due date
// thousands of years away, counts past int32, an absurd interval or
// duration) leaves the card new or the review out, never an error later.
func TestHostileSchedule(t *testing.T) {
	now := time.Now().UTC()
	ok := flashcards.CardState{State: 2, Due: now.Add(48 * time.Hour), Stability: 3, Difficulty: 5, ScheduledDays: 2,
		Reps: 2, LastReview: &now}
	far, reps, ivl := ok, ok, ok
	far.Due = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	reps.Reps = 1 << 40
	ivl.ScheduledDays = 1 << 40
	cases := map[string]struct {
		sched   Schedule
		kept    bool
		reviews int
	}{
		"far due":       {Schedule{State: far}, false, 0},
		"reps past int": {Schedule{State: reps}, false, 0},
		"interval":      {Schedule{State: ivl}, false, 0},
		"reviews": {Schedule{State: ok, Reviews: []flashcards.CardReview{
			{Rating: 3, ReviewedAt: now.Add(-time.Hour), DurationMs: ptr(1 << 30)}, // duration unrecorded
			{Rating: 3, State: 2, ReviewedAt: now, ScheduledDays: 1 << 40},         // left out
			{Rating: 9, State: 2, ReviewedAt: now.Add(time.Minute)},                // not a rating: left out
		}}, true, 1},
	}
	for name, c := range cases {
		var buf bytes.Buffer
		notes := []Note{{Item: 1, Type: Basic, Front: "a", Back: "b", Schedules: []Schedule{c.sched}}}
		if err := Write(context.Background(), &buf, Latest, "Hostile", notes, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := Read(context.Background(), buf.Bytes(), lim)
		if err != nil || len(got.Notes) != 1 {
			t.Fatalf("%s: %v %+v", name, err, got)
		}
		scheds := got.Notes[0].Schedules
		if !c.kept {
			if len(scheds) != 0 {
				t.Errorf("%s: kept %+v", name, scheds)
			}
			continue
		}
		if len(scheds) != 1 || len(scheds[0].Reviews) != c.reviews || scheds[0].Reviews[0].DurationMs != nil {
			t.Errorf("%s: got %+v", name, scheds)
		}
	}
}

// TestTooManyReviews: a review log past MaxReviews refuses the package.
func TestTooManyReviews(t *testing.T) {
	now := time.Now().UTC()
	sc := Schedule{State: flashcards.CardState{State: 2, Due: now, Stability: 3, Difficulty: 5, LastReview: &now}}
	for i := 0; i <= lim.MaxReviews; i++ {
		sc.Reviews = append(sc.Reviews, flashcards.CardReview{Rating: 3, State: 2, ReviewedAt: now.Add(time.Duration(-i) * time.Hour)})
	}
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, Latest, "Long", []Note{{Type: Basic, Front: "a", Back: "b", Schedules: []Schedule{sc}}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(context.Background(), buf.Bytes(), lim); err == nil || !strings.Contains(err.Error(), "reviews") {
		t.Fatalf("got %v", err)
	} else if _, ok := err.(ErrTooLarge); !ok {
		t.Fatalf("got %T", err)
	}
}
