package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/extraction"
	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
	"github.com/roundsedu/rounds/modules/drafts/internal/reader"
	"github.com/roundsedu/rounds/modules/drafts/internal/review"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
)

// handleExtractQuiz runs one extraction: read the section's pages, hand them
// to the chosen extractor, and store what it found as a new open batch of
// pending drafts. A run taken up again after a worker died finds the batch
// its predecessor stored (keyed on the job id) and stores nothing twice.
func (s *Service) handleExtractQuiz(ctx context.Context, run *jobs.Run[extractPayload]) (any, error) {
	pl := run.Args
	if b, err := s.store.BatchByJob(ctx, run.ID); err == nil {
		return s.resultFor(ctx, b.ID)
	} else if !errors.Is(err, db.ErrNotFound) {
		return nil, err
	}
	if err := run.Step(ctx, "loading section", fmt.Sprintf("section %d", pl.SectionID)); err != nil {
		return nil, err
	}
	sec, doc, err := s.sourceOf(ctx, pl.SectionID)
	if err != nil {
		return nil, err
	}
	pages, err := s.sectionPages(ctx, doc, sec, pl.ReadingMode, run.Step)
	if err != nil {
		return nil, err
	}
	ext, err := s.extractorFor(ctx, pl.Model, pl.ReadingMode)
	if ae, ok := apperr.As(err); ok {
		return nil, errors.New(ae.Message) // the model choice went away since the job was queued
	}
	if err != nil {
		return nil, err
	}
	in := extraction.Input{DocumentID: doc.ID, FirstPage: sec.StartPage, LastPage: sec.EndPage,
		Pages: make([]extraction.Page, len(pages)), ReadingMode: pl.ReadingMode, Model: pl.Model,
		Progress: run.Step,
		OpenPDF:  func(ctx context.Context) (io.ReadCloser, error) { return s.storage.Open(ctx, doc.StorageKey) }}
	for i, pg := range pages {
		in.Pages[i] = extraction.Page{Number: pg.PageNumber, Text: pg.Text}
	}
	found, err := ext.Extract(ctx, in)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no questions were recognised on pages %d-%d of %s",
			sec.StartPage, sec.EndPage, doc.OriginalFilename)
	}
	if err := run.Step(ctx, "saving drafts", fmt.Sprintf("%d drafts", len(found))); err != nil {
		return nil, err
	}
	batch := &store.Batch{JobID: &run.ID, DocumentID: &doc.ID, SectionID: &sec.ID,
		Source:    fmt.Sprintf("%s, %s (pages %d-%d)", doc.OriginalFilename, sec.Name, sec.StartPage, sec.EndPage),
		StartPage: sec.StartPage, EndPage: sec.EndPage, Extractor: ext.Name(), ReadingMode: pl.ReadingMode,
		CategoryID: pl.CategoryID, CreatedBy: pl.RequestedBy}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		return s.store.CreateBatch(ctx, batch, toDraftRows(found))
	})
	if db.IsUniqueViolation(err) {
		// Another worker holding this job stored it first.
		b, err := s.store.BatchByJob(ctx, run.ID)
		if err != nil {
			return nil, err
		}
		return s.resultFor(ctx, b.ID)
	}
	if err != nil {
		return nil, err
	}
	return extractResult{BatchID: batch.ID, Drafts: len(found)}, nil
}

// sectionPages is the text of the section's pages: the text layer
// recorded when the document was processed, or in OCR mode the pages read
// afresh by OCR in a reader child.
func (s *Service) sectionPages(ctx context.Context, doc *store.Document, sec *store.Section, mode string,
	step stepFunc) ([]store.Page, error) {
	if mode != extraction.ReadingOCR {
		return s.store.PageTexts(ctx, doc.ID, sec.StartPage, sec.EndPage)
	}
	f, err := s.localCopy(ctx, doc.StorageKey)
	if f != nil {
		defer release(f)
	}
	if err != nil {
		return nil, err
	}
	var pages []store.Page
	req := reader.Request{Path: f.Name(), First: sec.StartPage, Last: sec.EndPage, OCR: reader.OCRAll}
	err = s.reader.Read(ctx, req, func(e reader.Event) error {
		switch e.Kind {
		case reader.EventOpened:
			pages = pages[:0]
		case reader.EventPage:
			pages = append(pages, store.Page{DocumentID: doc.ID, PageNumber: e.Page, Text: pdfdoc.Clean(e.Text)})
			return step(ctx, "reading pages by OCR", fmt.Sprintf("page %d of %d-%d", e.Page, sec.StartPage, sec.EndPage))
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, jobs.ErrCancelled) || ctx.Err() != nil {
			return nil, err
		}
		return nil, errors.New(processingFailure(err))
	}
	return pages, nil
}

// sourceOf loads the section and its document, explaining what went away.
func (s *Service) sourceOf(ctx context.Context, sectionID int64) (*store.Section, *store.Document, error) {
	sec, err := s.store.SectionByID(ctx, sectionID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil, fmt.Errorf("section %d was deleted before the extraction ran", sectionID)
	}
	if err != nil {
		return nil, nil, err
	}
	doc, err := s.store.Document(ctx, sec.DocumentID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil, fmt.Errorf("document %d was deleted before the extraction ran", sec.DocumentID)
	}
	if err != nil {
		return nil, nil, err
	}
	if doc.Status != store.DocReady {
		return nil, nil, fmt.Errorf("document %d is no longer ready (status %s)", doc.ID, doc.Status)
	}
	return sec, doc, nil
}

func (s *Service) resultFor(ctx context.Context, batchID int64) (extractResult, error) {
	sums, err := s.store.BatchSummaries(ctx, []int64{batchID})
	if err != nil || len(sums) == 0 {
		return extractResult{BatchID: batchID}, err
	}
	b := sums[0]
	return extractResult{BatchID: batchID, Drafts: b.Pending + b.Rejected + b.Accepted}, nil
}

// toDraftRows turns what an extractor found into pending drafts, with the
// options cleaned the way an edit would clean them.
func toDraftRows(found []extraction.Question) []store.Draft {
	out := make([]store.Draft, len(found))
	for i, q := range found {
		typ := q.Type
		if typ != review.TypeMCQ && typ != review.TypeFillIn {
			typ = review.TypeMCQ
		}
		d := store.Draft{QuestionType: typ, QuestionText: strings.TrimSpace(q.Text),
			Options: review.CleanOptions(q.Options), CorrectAnswer: strings.TrimSpace(q.CorrectAnswer),
			Explanation: strings.TrimSpace(q.Explanation)}
		if q.Page > 0 {
			page := q.Page
			d.SourcePage = &page
		}
		out[i] = d
	}
	return out
}
