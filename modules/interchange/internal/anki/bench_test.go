package anki_test

// Measurement (not run by `go test` without -bench):
//
//	go test ./modules/interchange/internal/anki/ -run '^$' -bench WriteRead -benchtime 3x
//
// BenchmarkWriteRead5k writes a package of 5,000 basic notes, each card
// with a review state and ten reviews (50,000 revlog rows), and reads it
// back, reporting the package's size.

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards"
	. "github.com/roundsedu/rounds/modules/interchange/internal/anki"
)

func BenchmarkWriteRead5k(b *testing.B) {
	now := time.Now().UTC()
	notes := make([]Note, 5000)
	for i := range notes {
		sc := Schedule{State: flashcards.CardState{State: 2, Due: now.Add(72 * time.Hour), Stability: 4, Difficulty: 5,
			ScheduledDays: 3, Reps: 10, LastReview: &now}}
		for j := 0; j < 10; j++ {
			sc.Reviews = append(sc.Reviews, flashcards.CardReview{Rating: 3, State: 2,
				ReviewedAt: now.Add(time.Duration(-j*24) * time.Hour)})
		}
		notes[i] = Note{Type: Basic, Front: fmt.Sprintf("Front %d", i), Back: "Back", Schedules: []Schedule{sc}}
	}
	big := Limits{MaxEntries: 10, MaxUnpackedBytes: 1 << 30, MaxRowBytes: 1 << 20, MaxReadBytes: 1 << 30, MaxNotes: 10000, MaxReviews: 100000,
		MaxFieldBytes: 1000, QueryTimeout: time.Minute, MaxMediaMapBytes: 1 << 10}
	for b.Loop() {
		var buf bytes.Buffer
		if err := Write(context.Background(), &buf, Latest, "Bench", notes, nil); err != nil {
			b.Fatal(err)
		}
		got, err := Read(context.Background(), buf.Bytes(), big)
		if err != nil || len(got.Notes) != len(notes) {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len())/1e6, "MB/package")
	}
}
