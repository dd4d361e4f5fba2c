package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
)

// Charts is what the learner's dashboard draws beyond its counts: scores
// over time, questions answered per day and time per question against the
// cohort (accuracy by category is the dashboard's own).
type Charts struct {
	Since  time.Time
	Scores []store.ScorePoint
	Days   []store.DayCount
	Pace   []store.Pace
}

const (
	// chartAttempts caps the attempts a chart draws (the latest ones).
	chartAttempts = 1000
	// cohortMin is the fewest other attempts of a quiz whose median time
	// per question is shown.
	cohortMin = 3
)

// Charts reads the caller's chart series over the last days UTC days
// (today included), three queries.
func (s *Service) Charts(ctx context.Context, p auth.Principal, days int) (*Charts, error) {
	now := s.now()
	since := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1-days)
	c := &Charts{Since: since}
	var err error
	if c.Scores, err = s.store.ScorePoints(ctx, p.UserID, since, chartAttempts); err != nil {
		return nil, err
	}
	if c.Days, err = s.store.DayCounts(ctx, p.UserID, since); err != nil {
		return nil, err
	}
	if c.Pace, err = s.store.Paces(ctx, p.UserID, since, chartAttempts, cohortMin); err != nil {
		return nil, err
	}
	return c, nil
}
