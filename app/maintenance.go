package app

import (
	"context"
	"time"
)

// retention is how long delivered events and finished jobs are kept.
const retention = 30 * 24 * time.Hour

// scheduleMaintenance registers the platform's own housekeeping: the event
// tables and the job table would otherwise grow without bound.
func scheduleMaintenance(p *Platform) {
	p.Scheduler.Daily("prune_platform", 3, 17, func(ctx context.Context) error {
		events, err := p.Bus.Prune(ctx, retention)
		if err != nil {
			return err
		}
		jobs, err := p.Queue.Prune(ctx, retention)
		if err != nil {
			return err
		}
		p.Log.Info("pruned platform tables", "events", events, "jobs", jobs)
		return nil
	})
}
