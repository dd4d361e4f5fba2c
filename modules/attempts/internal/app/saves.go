package app

import (
	"context"
	"runtime"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/combine"
)

// Autosaves are the hottest write: every sitting learner's device sends
// one every few seconds. Concurrent saves are combined into one statement
// (platform/combine), so under load the database runs a few statements of
// many rows instead of many of one row, and at low load a save runs alone
// at once. A save is acknowledged only after the statement that stored it
// has returned (docs/decisions/attempts.md).
//
// The limits: a statement carries up to 64 saves, and half the cores'
// worth of statements run at once (one on two cores): the service's side
// of a save costs more CPU than Postgres's, and every extra statement in
// flight makes all of them smaller (at 50 learners, 8 saves a statement
// with two slots against 22 with one, and Postgres's CPU a save 34-38 µs
// against 22-28). As many again open to a save that finds 16 queued (the
// running statements fall behind and a core would wait) or that has
// waited 10 ms (a statement stuck behind a row lock, such as a submit of
// one of its attempts, must not hold up every other learner's save).
var saveLimits = combine.Limits{
	Slots:    max(1, runtime.GOMAXPROCS(0)/2),
	Spare:    max(1, runtime.GOMAXPROCS(0)/2),
	Crowd:    16,
	Patience: 10 * time.Millisecond,
	Max:      64,
}

// saveTimeout bounds a combined statement: it runs detached from the
// requests it carries (any of them may go away), not without end.
const saveTimeout = 15 * time.Second

// newSaves builds the combiner of the fast path's saves. A batch that
// fails as a whole (a deadlock, a lost connection) is tried again save by
// save, so one save's trouble is its own; a save that still fails is left
// unapplied and takes the slow path, which reports the error.
func (s *Service) newSaves() *combine.Combiner[*store.FitSave, int64] {
	return combine.New(saveLimits, func(f *store.FitSave) int64 { return f.Progress.AttemptID },
		func(ctx context.Context, batch []*store.FitSave) {
			ctx, cancel := context.WithTimeout(ctx, saveTimeout)
			defer cancel()
			if s.saveMany(ctx, batch) == nil || len(batch) == 1 {
				return
			}
			for _, f := range batch {
				_ = s.saveMany(ctx, []*store.FitSave{f})
			}
		})
}

func (s *Service) saveMany(ctx context.Context, batch []*store.FitSave) error {
	err := s.store.SaveManyIfFits(ctx, batch, s.policy.TimerGrace, s.policy.DeviceLock, s.policy.ProgressTTL)
	if err != nil {
		for _, f := range batch {
			f.Applied = false
		}
		s.log.WarnContext(ctx, "attempts: combined autosave failed", "saves", len(batch), "err", err)
	}
	return err
}
