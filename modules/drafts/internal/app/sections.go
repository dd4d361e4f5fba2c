package app

import (
	"context"
	"errors"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// NewSection is a page range to name.
type NewSection struct {
	Name      string
	StartPage int
	EndPage   int
}

// CreateSection names a page range of a ready document. Pages start at 1,
// the range is inclusive, a one-page section is allowed and the end may
// not pass the document's last page; anything else is a 400, as is a
// document that is not ready. The document row is locked so a concurrent
// delete or reprocess waits.
func (s *Service) CreateSection(ctx context.Context, p auth.Principal, docID int64, in NewSection) (*Section, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return nil, apperr.Invalidf("body.name", "the section name is empty")
	}
	var sec store.Section
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.store.LockDocument(ctx, docID)
		if errors.Is(err, db.ErrNotFound) {
			return documentNotFound(docID)
		}
		if err != nil {
			return err
		}
		if d.Status != store.DocReady {
			return apperr.BadRequestf("document %d is not ready (status %s); sections need a processed document", docID, d.Status)
		}
		if err := checkRange(in.StartPage, in.EndPage, d.TotalPages); err != nil {
			return err
		}
		sec = store.Section{DocumentID: docID, Name: name, StartPage: in.StartPage, EndPage: in.EndPage, CreatedBy: p.UserID}
		return s.store.CreateSection(ctx, &sec)
	})
	if err != nil {
		return nil, err
	}
	return &sec, nil
}

// checkRange validates a 1-based inclusive page range against the length.
func checkRange(start, end, total int) error {
	switch {
	case start < 1:
		return apperr.BadRequestf("start_page must be at least 1 (pages start at 1), got %d", start)
	case end < start:
		return apperr.BadRequestf("end_page %d is before start_page %d", end, start)
	case total < 1:
		return apperr.BadRequestf("the document has no pages recorded; reprocess it first")
	case end > total:
		return apperr.BadRequestf("end_page %d is past the end of the document (%d pages)", end, total)
	}
	return nil
}

// DeleteSection removes a section; drafts already extracted from it stay.
func (s *Service) DeleteSection(ctx context.Context, docID, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		ok, err := s.store.DeleteSection(ctx, docID, id)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.NotFoundf("section %d of document %d not found", id, docID)
		}
		return nil
	})
}
