package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// reviewSet is a selection of drafts locked for a decision, with their
// batches: every review write locks batches first, then drafts, both in id
// order, so two moderators deciding overlapping selections queue up instead
// of deadlocking, and a batch's open/closed status is decided by one of
// them at a time.
type reviewSet struct {
	drafts   []store.Draft // in id order
	batches  map[int64]*store.Batch
	batchIDs []int64
}

// lockForReview locks the selected drafts (duplicates ignored) and their
// batches inside the caller's transaction; 404 names any missing draft.
func (s *Service) lockForReview(ctx context.Context, ids []int64) (*reviewSet, error) {
	ids = uniqueIDs(ids)
	batchOf, err := s.store.DraftBatchIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	if missing := missingIDs(ids, batchOf); len(missing) > 0 {
		return nil, apperr.NotFoundf("%s not found", plural("draft", missing))
	}
	set := &reviewSet{}
	for _, b := range batchOf {
		set.batchIDs = append(set.batchIDs, b)
	}
	set.batchIDs = uniqueIDs(set.batchIDs)
	if set.batches, err = s.store.LockBatches(ctx, set.batchIDs); err != nil {
		return nil, err
	}
	if set.drafts, err = s.store.LockDrafts(ctx, ids); err != nil {
		return nil, err
	}
	if len(set.drafts) != len(ids) { // deleted while we waited for the lock
		found := map[int64]int64{}
		for _, d := range set.drafts {
			found[d.ID] = d.BatchID
		}
		return nil, apperr.NotFoundf("%s not found", plural("draft", missingIDs(ids, found)))
	}
	return set, nil
}

// alreadyAccepted is the 409 for drafts that are already bank questions.
func alreadyAccepted(drafts []store.Draft, action string) error {
	var parts []string
	for _, d := range drafts {
		if d.Status == store.DraftAccepted {
			parts = append(parts, fmt.Sprintf("draft %d (question %d)", d.ID, *d.QuestionID))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return apperr.Conflictf("already in the bank, cannot %s: %s; edit the question instead", action, strings.Join(parts, ", "))
}

func uniqueIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

func missingIDs(ids []int64, found map[int64]int64) []int64 {
	var out []int64
	for _, id := range ids {
		if _, ok := found[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

func plural(noun string, ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	if len(ids) == 1 {
		return noun + " " + parts[0]
	}
	return noun + "s " + strings.Join(parts, ", ")
}
