package app

import (
	"context"
	"errors"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
)

// Batch listing filters.
const (
	BatchesOpen   = "open"
	BatchesClosed = "closed"
	BatchesAll    = "all"
)

func batchNotFound(id int64) error { return apperr.NotFoundf("batch %d not found", id) }

// Batches lists batches newest first: open ones by default (a batch closes
// when no pending draft remains and leaves this list), closed ones, or all.
func (s *Service) Batches(ctx context.Context, status string, limit, offset int) ([]Batch, error) {
	if status == BatchesAll {
		status = ""
	}
	return s.store.Batches(ctx, status, limit, offset)
}

// Batch is one batch with its counts.
func (s *Service) Batch(ctx context.Context, id int64) (*Batch, error) {
	rows, err := s.store.BatchSummaries(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, batchNotFound(id)
	}
	return &rows[0], nil
}

// SetBatchCategory files the batch's future acceptances into a category
// (the Files-into-topic category); a draft's own category still wins.
func (s *Service) SetBatchCategory(ctx context.Context, id, categoryID int64) (*Batch, error) {
	if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", categoryID); err != nil {
		return nil, err
	}
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		locked, err := s.store.LockBatches(ctx, []int64{id})
		if err != nil {
			return err
		}
		if locked[id] == nil {
			return batchNotFound(id)
		}
		return s.store.SetBatchCategory(ctx, id, categoryID)
	})
	if err != nil {
		return nil, err
	}
	return s.Batch(ctx, id)
}

// BatchDrafts lists a batch's drafts in extraction order, optionally only
// those in one status.
func (s *Service) BatchDrafts(ctx context.Context, batchID int64, status string, limit, offset int) ([]Draft, error) {
	if _, err := s.Batch(ctx, batchID); err != nil {
		return nil, err
	}
	if status == BatchesAll {
		status = ""
	}
	rows, err := s.store.Drafts(ctx, batchID, status, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]Draft, len(rows))
	for i := range rows {
		out[i] = toDraft(&rows[i])
	}
	return out, nil
}

// Draft is one draft.
func (s *Service) Draft(ctx context.Context, id int64) (*Draft, error) {
	row, err := s.store.Draft(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, draftNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	d := toDraft(row)
	return &d, nil
}

func draftNotFound(id int64) error { return apperr.NotFoundf("draft %d not found", id) }
