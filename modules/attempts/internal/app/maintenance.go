package app

import (
	"context"
)

// TaskMaintenance is the scheduled job that keeps attempts tidy.
const TaskMaintenance = "attempts_maintenance"

// sweepBatch bounds one pass of the sweep; it loops until a pass comes back
// short.
const sweepBatch = 200

// Maintain is the scheduled attempts_maintenance job: it auto-submits every
// timed attempt whose time (plus the grace) ran out, so it happens even if
// the learner never returns, and removes saved progress past its expiry.
// Each auto-submit is its own transaction; a run can stop at any point and
// the next one carries on.
func (s *Service) Maintain(ctx context.Context) error {
	submitted := 0
	for ctx.Err() == nil {
		ids, err := s.store.Expired(ctx, nil, nil, s.policy.TimerGrace, sweepBatch)
		if err != nil {
			return err
		}
		pass := 0
		for _, id := range ids {
			ok, err := s.autoSubmit(ctx, id)
			if err != nil {
				return err
			}
			if ok {
				pass++
			}
		}
		submitted += pass
		// A short pass is the last; a pass that did nothing would only
		// find the same rows again.
		if len(ids) < sweepBatch || pass == 0 {
			break
		}
	}
	purged := int64(0)
	for ctx.Err() == nil {
		n, err := s.store.PurgeExpiredProgress(ctx, sweepBatch)
		if err != nil {
			return err
		}
		purged += n
		if n < sweepBatch {
			break
		}
	}
	if submitted > 0 || purged > 0 {
		s.log.Info("attempts maintenance", "auto_submitted", submitted, "expired_progress_removed", purged)
	}
	return nil
}

// ForgetUser removes everything the user owned here (their account was
// deleted): attempts with answers, saved progress, the reminder schedule,
// collections, folders and notes. A second delivery changes nothing.
func (s *Service) ForgetUser(ctx context.Context, userID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error { return s.store.ForgetUser(ctx, userID) })
}
