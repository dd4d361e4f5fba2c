package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
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
// then marks the document ready; a failure is recorded as the document's
// error message. It is safe to run again (a worker died) and does nothing
// for a deleted document or a run that was superseded by a reprocess.
func (s *Service) process(ctx context.Context, docID int64, run int, jobStep stepFunc) error {
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
		if errors.Is(err, jobs.ErrCancelled) || ctx.Err() != nil {
			return err // the worker is stopping; the job is taken up again
		}
		msg := processingFailure(err)
		if ferr := s.store.FailProcessing(context.WithoutCancel(ctx), docID, run, msg); ferr != nil {
			return ferr
		}
		return errors.New(msg)
	}
	return s.db.Tx(ctx, func(ctx context.Context) error {
		d, err := s.store.LockDocument(ctx, docID)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil || d.ProcessingRun != run {
			return err
		}
		return s.store.SavePages(ctx, docID, texts)
	})
}

// readPages copies the stored file to a temporary file and reads the text
// of each page in turn.
func (s *Service) readPages(ctx context.Context, doc *store.Document, step stepFunc) ([]string, error) {
	f, size, err := s.localCopy(ctx, doc.StorageKey)
	if f != nil {
		defer release(f)
	}
	if err != nil {
		return nil, err
	}
	openCtx, cancel := context.WithTimeout(ctx, s.cfg.InspectTimeout)
	r, err := pdfdoc.Open(openCtx, f, size, s.cfg.limits())
	cancel()
	if err != nil {
		return nil, err
	}
	n := r.NumPages()
	if err := step(ctx, "reading pages", fmt.Sprintf("%d pages", n)); err != nil {
		return nil, err
	}
	texts := make([]string, n)
	withText, unreadable := 0, 0
	for i := 1; i <= n; i++ {
		pageCtx, cancel := context.WithTimeout(ctx, s.cfg.PageTimeout)
		text, err := r.PageText(pageCtx, i)
		cancel()
		if errors.Is(err, pdfdoc.ErrTooSlow) || errors.Is(err, pdfdoc.ErrTooLarge) {
			return nil, err // hostile, not merely damaged: the document fails
		}
		if err != nil {
			unreadable++
			s.log.Warn("drafts: unreadable page", "document_id", doc.ID, "page", i, "error", err)
		}
		texts[i-1] = text
		if text != "" {
			withText++
		}
		if i%progressEvery == 0 && i < n {
			if err := step(ctx, "reading pages", fmt.Sprintf("%d of %d", i, n)); err != nil {
				return nil, err
			}
		}
	}
	if unreadable == n {
		return nil, fmt.Errorf("%w: no page could be read", pdfdoc.ErrMalformed)
	}
	detail := fmt.Sprintf("%d of %d pages have a text layer", withText, n)
	if unreadable > 0 {
		detail += fmt.Sprintf("; %d could not be read", unreadable)
	}
	return texts, step(ctx, "text extracted", detail)
}

// localCopy streams a stored object into a temporary file: the PDF reader
// needs random access, and the bucket may be remote.
func (s *Service) localCopy(ctx context.Context, key string) (*os.File, int64, error) {
	src, err := s.storage.Open(ctx, key)
	if err != nil {
		return nil, 0, fmt.Errorf("the stored file is missing: %w", err)
	}
	defer src.Close()
	f, err := s.tmp.create("pdf-*.pdf")
	if err != nil {
		return nil, 0, err
	}
	n, err := io.Copy(f, src)
	return f, n, err
}

// processingFailure is the one-line message recorded on the document.
func processingFailure(err error) string {
	switch {
	case errors.Is(err, pdfdoc.ErrMalformed), errors.Is(err, pdfdoc.ErrTooSlow), errors.Is(err, pdfdoc.ErrTooLarge):
		return "the PDF could not be read: " + err.Error()
	case errors.Is(err, pdfdoc.ErrNoPages):
		return pdfdoc.ErrNoPages.Error()
	}
	return "processing failed: " + err.Error()
}
