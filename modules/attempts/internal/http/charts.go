package http

import (
	"context"
	"math"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

type chartsIn struct {
	Days int `query:"days" default:"365" minimum:"1" maximum:"730" doc:"UTC days back, today included"`
}

// ScorePointResponse is one completed attempt's score.
type ScorePointResponse struct {
	AttemptID   int64     `json:"attempt_id"`
	QuizID      int64     `json:"quiz_id"`
	QuizTitle   string    `json:"quiz_title"`
	Mode        string    `json:"mode" enum:"timed,learning"`
	CompletedAt time.Time `json:"completed_at"`
	Percentage  float64   `json:"percentage"`
}

// DayResponse is what was sat on one UTC day.
type DayResponse struct {
	Day      string `json:"day" doc:"YYYY-MM-DD (UTC), by when the attempt was completed"`
	Answered int    `json:"answered" doc:"questions sat in completed attempts (unanswered count as wrong)"`
	Correct  int    `json:"correct"`
}

// PaceResponse is a timed attempt's time per question beside the cohort's.
type PaceResponse struct {
	AttemptID                int64     `json:"attempt_id"`
	QuizID                   int64     `json:"quiz_id"`
	QuizTitle                string    `json:"quiz_title"`
	CompletedAt              time.Time `json:"completed_at"`
	SecondsPerQuestion       float64   `json:"seconds_per_question" doc:"start to submission (or deadline) over the questions"`
	CohortSecondsPerQuestion *float64  `json:"cohort_seconds_per_question" doc:"median of other learners' timed attempts of the quiz; null below 3 of them"`
	CohortAttempts           int       `json:"cohort_attempts"`
}

// ChartsResponse is the series the learner's dashboard draws.
type ChartsResponse struct {
	Since  string               `json:"since" doc:"YYYY-MM-DD (UTC), the first day counted"`
	Scores []ScorePointResponse `json:"scores" doc:"completed attempts, oldest first (the latest 1,000)"`
	Days   []DayResponse        `json:"days" doc:"days with answers, oldest first"`
	Pace   []PaceResponse       `json:"pace" doc:"completed timed attempts, oldest first (the latest 1,000)"`
}

type chartsOut struct{ Body ChartsResponse }

func (h *handlers) charts(ctx context.Context, in *chartsIn) (*chartsOut, error) {
	c, err := h.svc.Charts(ctx, auth.MustFrom(ctx), in.Days)
	if err != nil {
		return nil, err
	}
	return &chartsOut{Body: toCharts(c)}, nil
}

// toCharts shapes the three series; their element types are the store's,
// which this package does not name.
func toCharts(c *app.Charts) ChartsResponse {
	out := ChartsResponse{Since: c.Since.Format(time.DateOnly), Scores: make([]ScorePointResponse, len(c.Scores)),
		Days: make([]DayResponse, len(c.Days)), Pace: make([]PaceResponse, len(c.Pace))}
	for i, s := range c.Scores {
		out.Scores[i] = ScorePointResponse{AttemptID: s.AttemptID, QuizID: s.QuizID, QuizTitle: s.QuizTitle, Mode: s.Mode,
			CompletedAt: s.CompletedAt, Percentage: round2(s.Percentage)}
	}
	for i, d := range c.Days {
		out.Days[i] = DayResponse{Day: d.Day.Format(time.DateOnly), Answered: d.Answered, Correct: d.Correct}
	}
	for i, p := range c.Pace {
		out.Pace[i] = PaceResponse{AttemptID: p.AttemptID, QuizID: p.QuizID, QuizTitle: p.QuizTitle, CompletedAt: p.CompletedAt,
			SecondsPerQuestion: round2(p.SecondsPerQuestion), CohortAttempts: p.CohortAttempts}
		if p.CohortSecondsPerQuestion != nil {
			v := round2(*p.CohortSecondsPerQuestion)
			out.Pace[i].CohortSecondsPerQuestion = &v
		}
	}
	return out
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
