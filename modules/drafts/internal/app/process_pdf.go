package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
	"github.com/roundsedu/rounds/modules/drafts/internal/reader"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
)

// processPayload is a process_pdf job: one run of one document.
type processPayload struct {
	DocumentID int64 `json:"document_id"`
	Run        int   `json:"run"`
}

func (processPayload) Kind() string { return KindProcessPDF }

// processResult is what a process_pdf job stores.
type processResult struct {
	DocumentID int64  `json:"document_id"`
	Status     string `json:"status"`
	TotalPages int    `json:"total_pages,omitempty"`
}

// progressEvery is how many pages pass between progress steps.
const progressEvery = 25

// stepFunc also reports progress to the job runner, which answers
// jobs.ErrCancelled once the job is no longer this worker's.
type stepFunc func(ctx context.Context, name, detail string) error

func (s *Service) handleProcessPDF(ctx context.Context, run *jobs.Run[processPayload]) (any, error) {
	pl := run.Args
	if err := s.process(ctx, pl.DocumentID, pl.Run, run.Step); err != nil {
		return nil, err
	}
	d, err := s.store.Document(ctx, pl.DocumentID)
	if errors.Is(err, db.ErrNotFound) {
		return processResult{DocumentID: pl.DocumentID, Status: "deleted"}, nil
	}
	if err != nil {
		return nil, err
	}
	return processResult{DocumentID: d.ID, Status: d.Status, TotalPages: d.TotalPages}, nil
}

// abandonProcessPDF fails the document of a process_pdf job given up on
// after its worker stopped max_attempts times (most likely this file
// crashed it): the document leaves processing, saying so, and can be
// reprocessed or deleted.
func (s *Service) abandonProcessPDF(ctx context.Context, pl processPayload, reason string) error {
	return s.store.FailProcessing(ctx, pl.DocumentID, pl.Run,
		"processing stopped: the worker reading this file stopped repeatedly ("+reason+")")
}

// process reads every page of the stored PDF and records the page text,
// then marks the document ready. Any failure once the document was
// accepted, reading it or storing what was read, ends it failed with the
// reason at once (nothing is left processing for the stuck-document
// repair); only a worker that is stopping leaves it, for the job to be
// taken up again. It is safe to run again (a worker died) and does
// nothing for a deleted document or a run superseded by a reprocess.
func (s *Service) process(ctx context.Context, docID int64, run int, jobStep stepFunc) (err error) {
	doc, err := s.store.Document(ctx, docID)
	if errors.Is(err, db.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if doc.ProcessingRun != run {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("drafts: processing panicked", "document_id", docID, "panic", p)
			err = errors.New("internal error")
		}
		if err == nil || errors.Is(err, jobs.ErrCancelled) || ctx.Err() != nil {
			return // done, or the worker is stopping: the job is taken up again
		}
		msg := processingFailure(err)
		if ferr := s.store.FailProcessing(context.WithoutCancel(ctx), docID, run, msg); ferr != nil {
			err = errors.Join(err, ferr)
			return
		}
		err = errors.New(msg)
	}()
	step := func(ctx context.Context, name, detail string) error {
		if err := s.store.AppendStep(ctx, docID, run, name, detail); err != nil {
			return err
		}
		if jobStep != nil {
			return jobStep(ctx, name, detail)
		}
		return nil
	}
	texts, err := s.readPages(ctx, doc, step)
	if err != nil {
		return err
	}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.store.LockDocument(ctx, docID)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil || d.ProcessingRun != run {
			return err
		}
		return s.store.SavePages(ctx, docID, texts)
	})
	if err != nil {
		return fmt.Errorf("%w: %v", errNotStored, err)
	}
	return nil
}

// errNotStored is page text the database refused.
var errNotStored = errors.New("the page text could not be stored")

// readPages copies the stored file to a temporary file and has a reader
// child read the text of each page, OCR'ing pages that have no text
// layer but paint an image (a scan).
func (s *Service) readPages(ctx context.Context, doc *store.Document, step stepFunc) ([]string, error) {
	f, err := s.localCopy(ctx, doc.StorageKey)
	if f != nil {
		defer release(f)
	}
	if err != nil {
		return nil, err
	}
	var texts []string
	var withText, ocred, unreadable int
	err = s.reader.Read(ctx, reader.Request{Path: f.Name(), OCR: reader.OCRAuto}, func(e reader.Event) error {
		switch e.Kind {
		case reader.EventOpened:
			texts, withText, ocred, unreadable = make([]string, e.Pages), 0, 0, 0
			detail := fmt.Sprintf("%d pages", e.Pages)
			if e.Repaired {
				detail += ", read after repairing the file's structure"
			}
			return step(ctx, "reading pages", detail)
		case reader.EventPage:
			if e.Page < 1 || e.Page > len(texts) {
				return fmt.Errorf("the reader sent page %d of %d", e.Page, len(texts))
			}
			texts[e.Page-1] = pdfdoc.Clean(e.Text)
			switch {
			case texts[e.Page-1] != "" && e.OCR:
				ocred++
				withText++
			case texts[e.Page-1] != "":
				withText++
			}
			if e.Problem != "" {
				s.log.Warn("drafts: page without text", "document_id", doc.ID, "page", e.Page, "problem", e.Problem)
			}
			if e.Unreadable {
				unreadable++
			}
			if e.Page%progressEvery == 0 && e.Page < len(texts) {
				return step(ctx, "reading pages", fmt.Sprintf("%d of %d", e.Page, len(texts)))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := len(texts)
	if n > 0 && unreadable == n {
		return nil, fmt.Errorf("%w: no page could be read", pdfdoc.ErrMalformed)
	}
	detail := fmt.Sprintf("%d of %d pages have a text layer", withText-ocred, n)
	if ocred > 0 {
		detail += fmt.Sprintf("; %d read by OCR", ocred)
	}
	if unreadable > 0 {
		detail += fmt.Sprintf("; %d could not be read", unreadable)
	}
	return texts, step(ctx, "text extracted", detail)
}

// localCopy streams a stored object into a temporary file, which the
// reader child opens by its path (the bucket may be remote).
func (s *Service) localCopy(ctx context.Context, key string) (*os.File, error) {
	src, err := s.storage.Open(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("the stored file is missing: %w", err)
	}
	defer src.Close()
	f, err := s.tmp.create("pdf-*.pdf")
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(f, src)
	return f, err
}

// processingFailure is the one-line message recorded on the document.
func processingFailure(err error) string {
	switch {
	case errors.Is(err, pdfdoc.ErrMalformed), errors.Is(err, pdfdoc.ErrTooSlow), errors.Is(err, pdfdoc.ErrTooLarge),
		errors.Is(err, pdfdoc.ErrUnsupported), errors.Is(err, reader.ErrStopped), errors.Is(err, reader.ErrOCR):
		return "the PDF could not be read: " + err.Error()
	case errors.Is(err, pdfdoc.ErrNoPages), errors.Is(err, pdfdoc.ErrNeedsPassword):
		return err.Error()
	}
	return "processing failed: " + err.Error()
}
