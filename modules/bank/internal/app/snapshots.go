package app

import (
	"context"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// The reasons a classification snapshot is taken.
const (
	SnapshotBeforeClassification = "classification"
	SnapshotBeforeRollback       = "rollback"
)

// snapshotsKept bounds the snapshots stored (each holds every question-tag
// pair); older ones are dropped as new ones are taken.
const snapshotsKept = 50

// Snapshot is a classification snapshot as listed (its pairs stay stored).
type Snapshot = store.Snapshot

// Rollback is what restoring a snapshot did.
type Rollback struct {
	Restored         int64
	Backup           *Snapshot // the classification just before the rollback
	TagsAdded        int64
	TagsRemoved      int64
	QuestionsChanged int
}

// snapshotBeforeRun stores the classification as a run of job found it,
// once per job (a resumed run keeps the first), holding other tag writers
// off while it reads.
func (s *Service) snapshotBeforeRun(ctx context.Context, job uuid.UUID, by *int64) error {
	return s.write(ctx, func(ctx context.Context) error {
		if err := s.store.LockClassification(ctx); err != nil {
			return err
		}
		if _, err := s.store.SnapshotTags(ctx, SnapshotBeforeClassification, &job, nil, by); err != nil {
			return err
		}
		return s.store.PruneSnapshots(ctx, snapshotsKept)
	})
}

// ClassificationSnapshots lists the snapshots, newest first (admins only).
func (s *Service) ClassificationSnapshots(ctx context.Context, p auth.Principal, limit, offset int) ([]Snapshot,
	int64, error) {
	if !p.IsAdmin() {
		return nil, 0, apperr.Forbiddenf("only administrators see classification snapshots")
	}
	return s.store.Snapshots(ctx, limit, offset)
}

// RollbackClassification makes the question tags exactly those of snapshot
// id (less pairs whose question or tag is gone), after snapshotting the
// current classification; each question whose tags changed gets a new
// version and a change event, all in one transaction (admins only).
func (s *Service) RollbackClassification(ctx context.Context, p auth.Principal, id int64) (*Rollback, error) {
	if !p.IsAdmin() {
		return nil, apperr.Forbiddenf("only administrators roll back a classification")
	}
	out := &Rollback{Restored: id}
	err := s.write(ctx, func(ctx context.Context) error {
		if err := s.store.LockClassification(ctx); err != nil {
			return err
		}
		if _, err := s.store.SnapshotByID(ctx, id); err != nil {
			if db.IsNotFound(err) {
				return apperr.NotFoundf("no classification snapshot %d", id)
			}
			return err
		}
		backup, err := s.store.SnapshotTags(ctx, SnapshotBeforeRollback, nil, &id, &p.UserID)
		if err != nil {
			return err
		}
		out.Backup = backup
		res, err := s.store.RestoreTags(ctx, id)
		if err != nil {
			return err
		}
		// Pruned after the restore: the snapshot restored may be the oldest.
		if err := s.store.PruneSnapshots(ctx, snapshotsKept); err != nil {
			return err
		}
		out.TagsAdded, out.TagsRemoved, out.QuestionsChanged = res.Added, res.Removed, len(res.Questions)
		if len(res.Questions) == 0 {
			return nil
		}
		rows, err := s.store.TouchQuestions(ctx, res.Questions)
		if err != nil {
			return err
		}
		for i := range rows {
			if err := s.publish(ctx, ChangeUpdated, &rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
