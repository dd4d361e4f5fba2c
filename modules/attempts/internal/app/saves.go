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
// (platform/combine): at most saveSlots run at once, each carrying up to
// saveBatch learners' saves, so under load the database runs a few
// statements of many rows instead of many of one row, and at low load a
// save runs alone at once. A save is acknowledged only after the statement
// that stored it has returned (docs/decisions/attempts.md).
var saveSlots = max(2, runtime.GOMAXPROCS(0))

const saveBatch = 64

// saveTimeout bounds a combined statement: it runs detached from the
// requests it carries (any of them may go away), not without end.
const saveTimeout = 15 * time.Second

// newSaves builds the combiner of the fast path's saves. A batch that
// fails as a whole (a deadlock, a lost connection) is tried again save by
// save, so one save's trouble is its own; a save that still fails is left
// unapplied and takes the slow path, which reports the error.
func (s *Service) newSaves() *combine.Combiner[*store.FitSave, int64] {
	return combine.New(saveSlots, saveBatch, func(f *store.FitSave) int64 { return f.Progress.AttemptID },
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
