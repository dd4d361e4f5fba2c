package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/db"
)

// SaveManyIfFits on a real database: hostile text goes through the
// hand-written batch and the statement and is stored exactly (the saves
// are applied by the statement itself, not by a slow path that would hide
// a broken batch), and each save is judged on its own: one naming another
// quiz or another learner's attempt is not stored, its batch-mates are.
func TestSaveManyIfFits(t *testing.T) {
	ctx := context.Background()
	d, _, exec := freshDatabase(t)
	// Five attempts of quiz 7 (learners 1-5), each sat with questions 101-103.
	exec(`INSERT INTO attempts.sat_questions (snapshot_key, question_id, version, question_type, question_text)
		SELECT 'k' || q, q, 1, 'mcq', 'text' FROM generate_series(101, 103) q`)
	exec(`INSERT INTO attempts.attempts (id, user_id, quiz_id, quiz_title, mode, total_questions)
		OVERRIDING SYSTEM VALUE SELECT u, u, 7, 'Quiz', 'timed', 3 FROM generate_series(1, 5) u`)
	exec(`INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id)
		SELECT a, s.question_id - 101, s.question_id, s.id FROM generate_series(1, 5) a, attempts.sat_questions s`)

	hostile := []string{`she said "MS"`, `back\slash \"`, `\u0000 as text`, "line\nbreak\r\tand\x01\x1f\x7f",
		"ünïcødé — \u2028\u2029 🫀", "", `{"answers":{"1":"x"}}`, "</script><b>&amp;</b>", strings.Repeat("é", 900)}
	mode, voice, left, total, rev := `"\`+"\t", hostile[4], 0.1+0.2, 1e21, int64(1<<53+1)
	at := time.Date(0, 1, 1, 0, 0, 0, 123000, time.UTC)
	progress := func(attempt int64, answers store.AnswerMap) *store.FitSave {
		return &store.FitSave{Progress: &store.Progress{AttemptID: attempt, UserID: attempt, QuizID: 7,
			Answers: answers, Device: fmt.Sprintf(`dev "%d" \`, attempt)}}
	}
	rich := progress(1, store.AnswerMap{})
	for i, s := range hostile {
		rich.Progress.Answers[fmt.Sprint(101+i%3)] += s
	}
	rich.Progress.Mode, rich.Progress.Voice, rich.Progress.TimeLeft, rich.Progress.TotalTime = &mode, &voice, &left, &total
	rich.Progress.StartedAt, rich.Progress.Revision, rich.Progress.CurrentIdx = &at, &rev, 2
	saves := []*store.FitSave{
		rich,
		progress(2, nil), // no answers
		progress(3, store.AnswerMap{"101": "a"}),
		progress(4, store.AnswerMap{"101": "a"}),
		progress(5, store.AnswerMap{"101": "a", "102": "", "103": "c"}),
	}
	saves[4].AnswersJSON = `{"101":"a","102":"","103":"c"}` // the body's own text, taken as it is
	saves[2].Progress.QuizID = 8                            // attempt 3 is of quiz 7
	saves[3].Progress.UserID = 5                            // attempt 4 is learner 4's
	if err := store.New(d).SaveManyIfFits(ctx, saves, 10*time.Second, 30*time.Second, time.Hour); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false, false, true} {
		if saves[i].Applied != want {
			t.Errorf("save of attempt %d: applied %v, want %v", i+1, saves[i].Applied, want)
		}
	}
	for _, f := range saves {
		got, err := store.New(d).ProgressOfAttempt(ctx, f.Progress.UserID, f.Progress.AttemptID, db.NoLock)
		if !f.Applied {
			if err == nil {
				t.Errorf("attempt %d: a refused save was stored", f.Progress.AttemptID)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		w := *f.Progress
		if w.Answers == nil {
			w.Answers = store.AnswerMap{}
		}
		if !got.SavedAt.Equal(w.SavedAt) || !got.ExpiresAt.Equal(w.ExpiresAt) || w.SavedAt.IsZero() {
			t.Errorf("attempt %d: times %v %v, reported %v %v", w.AttemptID, got.SavedAt, got.ExpiresAt, w.SavedAt, w.ExpiresAt)
		}
		if show(got) != show(&w) {
			t.Errorf("attempt %d stored\n %s\nwant\n %s", w.AttemptID, show(got), show(&w))
		}
	}
}

// show is a progress row's stored fields, pointers followed.
func show(p *store.Progress) string {
	at := "<nil>"
	if p.StartedAt != nil {
		at = p.StartedAt.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%d %d %d %q %d %s %s %s %s %s %q %s", p.AttemptID, p.UserID, p.QuizID, map[string]string(p.Answers),
		p.CurrentIdx, deref(p.Mode), deref(p.Voice), deref(p.TimeLeft), at, deref(p.TotalTime), p.Device, deref(p.Revision))
}

func deref[T any](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%#v", *p)
}
