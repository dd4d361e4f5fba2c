package store

import (
	"context"
	"time"
)

// DailyUsage is one task's use on one UTC day.
type DailyUsage struct {
	Day              time.Time
	Task             string
	Calls            int64
	PromptTokens     int64
	CompletionTokens int64
}

// DailyUsageSince sums usage per UTC day and task since t, oldest day
// first (usage_day_idx).
func (s *Store) DailyUsageSince(ctx context.Context, t time.Time) ([]DailyUsage, error) {
	var out []DailyUsage
	err := s.db.Conn(ctx).Raw(`SELECT date_trunc('day', created_at, 'UTC') AS day, task, count(*) AS calls,
		  sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens
		FROM ai.usage WHERE created_at >= ? GROUP BY 1, 2 ORDER BY 1, 2`, t).Scan(&out).Error
	return out, err
}
