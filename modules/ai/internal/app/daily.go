package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/store"
)

// DailyUsage is one UTC day and task of model use, as the store sums it.
type DailyUsage = store.DailyUsage

// DailyUsage sums model calls and tokens per UTC day and task over the last
// days UTC days, today included.
func (s *Service) DailyUsage(ctx context.Context, days int) (time.Time, []store.DailyUsage, error) {
	now := s.now().UTC()
	since := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1-days)
	rows, err := s.store.DailyUsageSince(ctx, since)
	return since, rows, err
}
