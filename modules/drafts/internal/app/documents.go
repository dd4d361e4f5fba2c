package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

func documentNotFound(id int64) error { return apperr.NotFoundf("document %d not found", id) }

// Documents lists documents newest first: moderators see every document,
// anyone else only their own.
func (s *Service) Documents(ctx context.Context, p auth.Principal, limit, offset int) ([]Document, error) {
	var owner *int64
	if !p.IsModerator() {
		owner = &p.UserID
	}
	rows, err := s.store.Documents(ctx, owner, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]Document, len(rows))
	for i := range rows {
		out[i] = *toDocument(&rows[i])
	}
	return out, nil
}

// Document is one document with its sections, for a moderator or its
// uploader; anyone else is told it does not exist.
func (s *Service) Document(ctx context.Context, p auth.Principal, id int64) (*Document, error) {
	row, err := s.store.Document(ctx, id)
	if errors.Is(err, db.ErrNotFound) || (err == nil && !p.IsModerator() && row.UserID != p.UserID) {
		return nil, documentNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	secs, err := s.store.Sections(ctx, id)
	if err != nil {
		return nil, err
	}
	d := toDocument(row)
	d.Sections = secs
	return d, nil
}

// DocumentSteps is a document's processing history.
func (s *Service) DocumentSteps(ctx context.Context, id int64) ([]Step, error) {
	row, err := s.store.Document(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, documentNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	return row.Steps(), nil
}

// DocumentStatus is the document without its sections.
func (s *Service) DocumentStatus(ctx context.Context, id int64) (*Document, error) {
	row, err := s.store.Document(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, documentNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	return toDocument(row), nil
}

// DeleteDocument removes the document, its pages and sections, then its
// file. Batches extracted from it stay for review.
func (s *Service) DeleteDocument(ctx context.Context, id int64) error {
	var key string
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.store.LockDocument(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return documentNotFound(id)
		}
		if err != nil {
			return err
		}
		key = d.StorageKey
		return s.store.DeleteDocument(ctx, id)
	})
	if err != nil {
		return err
	}
	s.removeFile(ctx, key)
	return nil
}

// Reprocess runs process_pdf again for a document that is not processing
// (a repaired or failed one), on a new run so a late job of an older run
// writes nothing.
func (s *Service) Reprocess(ctx context.Context, p auth.Principal, id int64) (*Document, error) {
	var doc *store.Document
	queued := false
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		var err error
		doc, err = s.store.LockDocument(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return documentNotFound(id)
		}
		if err != nil {
			return err
		}
		if doc.Status == store.DocProcessing {
			return apperr.Conflictf("document %d is already processing", id)
		}
		if err := s.store.StartRun(ctx, doc, "reprocess requested", fmt.Sprintf("run %d", doc.ProcessingRun+1)); err != nil {
			return err
		}
		if queued, err = s.dispatchProcessing(ctx, p.UserID, doc); err != nil {
			return err
		}
		doc, err = s.store.Document(ctx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.processUnlessQueued(ctx, doc, queued)
}

// RepairStuckDocuments moves documents processing for longer than
// stuck_after to ready, so they can be reprocessed, and returns their ids.
func (s *Service) RepairStuckDocuments(ctx context.Context) ([]int64, error) {
	note := fmt.Sprintf("processing did not finish within %s; marked ready by the stuck-document repair, reprocess it to read its pages",
		humanDuration(s.cfg.StuckAfter))
	var ids []int64
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		var err error
		ids, err = s.store.RepairStuck(ctx, time.Now().Add(-s.cfg.StuckAfter), note)
		return err
	})
	return ids, err
}

// CountDocuments counts every document (moderators' dashboards).
func (s *Service) CountDocuments(ctx context.Context) (int, error) {
	return s.store.CountDocuments(ctx)
}

func humanDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}
