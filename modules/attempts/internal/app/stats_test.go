package app

import (
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestStreaks(t *testing.T) {
	now := day("2025-03-10").Add(15 * time.Hour)
	cases := []struct {
		name             string
		days             []string
		current, longest int
	}{
		{"none", nil, 0, 0},
		{"today only", []string{"2025-03-10"}, 1, 1},
		{"yesterday keeps the streak", []string{"2025-03-09", "2025-03-08"}, 2, 2},
		{"two days ago breaks it", []string{"2025-03-08", "2025-03-07", "2025-03-06"}, 0, 3},
		{"longest in the past", []string{"2025-03-10", "2025-03-09", "2025-03-01", "2025-02-28", "2025-02-27"}, 2, 3},
		{"gap after today", []string{"2025-03-10", "2025-03-08", "2025-03-07"}, 1, 2},
	}
	for _, c := range cases {
		var ds []time.Time
		for _, d := range c.days {
			ds = append(ds, day(d))
		}
		st := Streaks(ds, now)
		if st.Current != c.current || st.Longest != c.longest {
			t.Errorf("%s: got current %d longest %d, want %d %d", c.name, st.Current, st.Longest, c.current, c.longest)
		}
	}
}

func TestByCategory(t *testing.T) {
	cardio, renal := int64(1), int64(2)
	filings := map[int64]bank.Filing{
		10: {CategoryID: &cardio, CategoryName: "Cardiology"},
		11: {CategoryID: &cardio, CategoryName: "Cardiology"},
		12: {CategoryID: &renal, CategoryName: "Renal"},
		13: {},
	}
	got := ByCategory([]QuestionCount{
		{QuestionID: 10, Seen: 2, Correct: 2},
		{QuestionID: 11, Seen: 2, Correct: 1},
		{QuestionID: 12, Seen: 4, Correct: 1},
		{QuestionID: 13, Seen: 1, Correct: 1},
		{QuestionID: 99, Seen: 1, Correct: 0}, // no longer in the bank
	}, filings)
	if len(got) != 3 {
		t.Fatalf("want 3 groups, got %+v", got)
	}
	if got[0].CategoryName != "Renal" || got[0].Percentage != 25 {
		t.Errorf("weakest first: %+v", got[0])
	}
	if got[1].CategoryID != nil || got[1].Seen != 2 || got[1].Correct != 1 {
		t.Errorf("no-category group: %+v", got[1])
	}
	if got[2].CategoryName != "Cardiology" || got[2].Seen != 4 || got[2].Correct != 3 || got[2].Percentage != 75 {
		t.Errorf("cardiology: %+v", got[2])
	}
}
