package app

import (
	"context"
	"maps"
	"time"
)

// The counts the landing page always shows, 0 until a module offers them.
var publicCounts = []string{"questions", "quizzes", "articles", "decks", "learners"}

// PublicStats is the landing page's live counts, summed over every module
// that offers some, and kept for stats_ttl so a busy landing page costs a
// few counts a minute. Callers waiting on a refresh share it.
func (s *Service) PublicStats(ctx context.Context) (map[string]int64, error) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	if s.stats != nil && time.Since(s.statsAt) < s.cfg.StatsTTL {
		return maps.Clone(s.stats), nil
	}
	out := make(map[string]int64, len(publicCounts))
	for _, k := range publicCounts {
		out[k] = 0
	}
	for _, c := range s.ports.Counters {
		counts, err := c.PublicCounts(ctx)
		if err != nil {
			return nil, err
		}
		for k, n := range counts {
			out[k] += n
		}
	}
	s.stats, s.statsAt = out, time.Now()
	return maps.Clone(out), nil
}
