package app

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
)

// Dashboard is what a learner's home page shows.
type Dashboard struct {
	Quizzes           int
	Attempts          int
	Completed         int
	InProgress        int
	AverageScore      *float64 // mean percentage of completed attempts
	BestScore         *float64
	QuestionsAnswered int // questions sat in completed attempts
	CorrectAnswers    int
	Documents         *int // moderators only, when drafts is wired
	Streak            Streak
	Categories        []CategoryStat
	Recent            []Attempt
	RemindersDue      int
	RemindersDisabled bool
}

// Streak counts consecutive UTC days with a completed attempt.
type Streak struct {
	Current    int
	Longest    int
	LastActive *time.Time
}

// CategoryStat is how a learner does on the questions filed in one
// category (by where they are filed now; a question no longer in the bank
// counts under no category).
type CategoryStat struct {
	CategoryID   *int64
	CategoryName string
	Seen         int
	Correct      int
	Percentage   float64
}

// dashboardRecent is how many recent attempts the dashboard shows.
const dashboardRecent = 5

// Dashboard assembles the caller's dashboard in a fixed number of queries.
func (s *Service) Dashboard(ctx context.Context, p auth.Principal) (*Dashboard, error) {
	sum, err := s.store.Summary(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	d := &Dashboard{Attempts: sum.Attempts, Completed: sum.Completed, InProgress: sum.InProgress,
		AverageScore: roundPtr(sum.AveragePercentage), BestScore: roundPtr(sum.BestPercentage),
		QuestionsAnswered: sum.QuestionsAnswered, CorrectAnswers: sum.CorrectAnswers}
	if d.Quizzes, err = s.ports.Bank.CountQuizzes(ctx, p); err != nil {
		return nil, err
	}
	if p.IsModerator() {
		n, err := s.ports.Documents.CountDocuments(ctx)
		if err != nil {
			return nil, err
		}
		d.Documents = &n
	}
	days, err := s.store.ActiveDays(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	d.Streak = Streaks(days, s.now())
	if d.Categories, err = s.categories(ctx, p.UserID); err != nil {
		return nil, err
	}
	recent, err := s.store.Attempts(ctx, p.UserID, nil, dashboardRecent, 0)
	if err != nil {
		return nil, err
	}
	d.Recent = recent
	on, err := s.remindersOn(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	d.RemindersDisabled = !on
	if on {
		if _, d.RemindersDue, err = s.store.ReminderCounts(ctx, p.UserID); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// categories is how the learner does per category over their completed
// attempts, weakest first.
func (s *Service) categories(ctx context.Context, userID int64) ([]CategoryStat, error) {
	tallies, err := s.store.QuestionTallies(ctx, userID)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(tallies))
	counts := make([]QuestionCount, len(tallies))
	for i, t := range tallies {
		ids[i] = t.QuestionID
		counts[i] = QuestionCount{QuestionID: t.QuestionID, Seen: t.Seen, Correct: t.Correct}
	}
	filings := map[int64]bank.Filing{}
	if len(ids) > 0 {
		if filings, err = s.ports.Bank.QuestionFilings(ctx, ids); err != nil {
			return nil, err
		}
	}
	return ByCategory(counts, filings), nil
}

// QuestionCount is how often one question was sat and got right.
type QuestionCount struct {
	QuestionID    int64
	Seen, Correct int
}

// ByCategory groups question counts by where each question is filed,
// weakest category first (then by name). Questions missing from filings
// (no longer in the bank) and unfiled ones share the no-category group.
func ByCategory(counts []QuestionCount, filings map[int64]bank.Filing) []CategoryStat {
	type key struct {
		id  int64
		set bool
	}
	groups := map[key]*CategoryStat{}
	var order []key
	for _, c := range counts {
		f := filings[c.QuestionID]
		k := key{}
		if f.CategoryID != nil {
			k = key{id: *f.CategoryID, set: true}
		}
		g, ok := groups[k]
		if !ok {
			g = &CategoryStat{CategoryName: f.CategoryName}
			if k.set {
				id := k.id
				g.CategoryID = &id
			}
			groups[k] = g
			order = append(order, k)
		}
		g.Seen += c.Seen
		g.Correct += c.Correct
	}
	out := make([]CategoryStat, 0, len(order))
	for _, k := range order {
		g := groups[k]
		g.Percentage = Percentage(g.Correct, g.Seen)
		out = append(out, *g)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Percentage != out[j].Percentage {
			return out[i].Percentage < out[j].Percentage
		}
		return out[i].CategoryName < out[j].CategoryName
	})
	return out
}

// Streaks computes the current and longest runs of consecutive UTC days
// from the active days (newest first, distinct). The current streak counts
// back from today, or from yesterday when nothing is done yet today.
func Streaks(days []time.Time, now time.Time) Streak {
	var st Streak
	if len(days) == 0 {
		return st
	}
	dayOf := func(t time.Time) time.Time {
		t = t.UTC()
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	last := dayOf(days[0])
	st.LastActive = &last
	run := 0
	var prev time.Time
	for i, d := range days {
		d = dayOf(d)
		if i > 0 && prev.Sub(d) == 24*time.Hour {
			run++
		} else {
			run = 1
		}
		if run > st.Longest {
			st.Longest = run
		}
		if i == 0 || (st.Current == i && run == i+1) {
			st.Current = run
		}
		prev = d
	}
	if today := dayOf(now); today.Sub(last) > 24*time.Hour {
		st.Current = 0
	}
	return st
}

func roundPtr(v *float64) *float64 {
	if v == nil {
		return nil
	}
	r := math.Round(*v*100) / 100
	return &r
}
