package app

import (
	"testing"
	"time"
)

func TestNextReview(t *testing.T) {
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	day := 24 * time.Hour

	miss := NextReview(nil, false, at)
	if miss == nil || miss.Box != 1 || miss.Misses != 1 || !miss.DueAt.Equal(at.Add(day)) {
		t.Fatalf("first miss: %+v", miss)
	}
	if NextReview(nil, true, at) != nil {
		t.Fatal("a right answer off the schedule must stay off it")
	}
	up := NextReview(miss, true, at.Add(day))
	if up == nil || up.Box != 2 || up.Misses != 1 || !up.DueAt.Equal(at.Add(day+3*day)) {
		t.Fatalf("right answer in box 1: %+v", up)
	}
	again := NextReview(up, false, at.Add(2*day))
	if again == nil || again.Box != 1 || again.Misses != 2 || !again.LastMissedAt.Equal(at.Add(2*day)) {
		t.Fatalf("miss in box 2: %+v", again)
	}
	last := &Review{Box: 4, Misses: 1}
	if NextReview(last, true, at) != nil {
		t.Fatal("a right answer in the last box retires the question")
	}
	three := NextReview(&Review{Box: 3, Misses: 2}, true, at)
	if three == nil || three.Box != 4 || !three.DueAt.Equal(at.Add(14*day)) {
		t.Fatalf("right answer in box 3: %+v", three)
	}
}
