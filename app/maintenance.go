package app

import (
	"context"
	"time"
)

// retention is how long delivered events are kept (River deletes finished
// jobs itself after jobs.retention).
const retention = 30 * 24 * time.Hour

// scheduleMaintenance registers the platform's own housekeeping: the event
// tables would otherwise grow without bound.
func scheduleMaintenance(p *Platform) {
	p.Scheduler.DailyQueued("prune_platform", 3, 17, func(ctx context.Context) error {
		events, err := p.Bus.Prune(ctx, retention)
		if err == nil {
			p.Log.Info("pruned platform tables", "events", events)
		}
		return err
	})
	// Every caller address ever seen leaves a counter row.
	p.Scheduler.Every("prune_rate_limits", time.Hour, func(ctx context.Context) error {
		n, err := p.Limiter.Prune(ctx)
		if err == nil && n > 0 {
			p.Log.Info("pruned rate-limit windows", "rows", n)
		}
		return err
	})
}
