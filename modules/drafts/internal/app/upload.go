package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
	"github.com/roundsedu/rounds/modules/drafts/internal/reader"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// UploadFile is the file part of an upload: its name as the client gave it
// and a stream of its bytes.
type UploadFile struct {
	Name string
	Body io.Reader
}

// Upload streams the file to a temporary file (never holding it in
// memory), refuses anything above the size limit or that is not a readable
// PDF by its bytes, stores it, and records the document with process_pdf
// dispatched in the same transaction. When the queue cannot take the job the
// document is processed inside the request instead.
func (s *Service) Upload(ctx context.Context, p auth.Principal, f UploadFile) (*Document, error) {
	tmp, size, err := s.spool(f.Body)
	if tmp != nil {
		defer release(tmp)
	}
	if err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, apperr.BadRequestf("the file is empty")
	}
	if !pdfdoc.HasHeader(head(tmp)) {
		return nil, refusal(pdfdoc.ErrNotPDF) // no child for what is plainly not a PDF
	}
	pages, err := s.reader.Inspect(ctx, tmp.Name())
	if err != nil {
		return nil, refusal(err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	name := uuid.NewString() + ".pdf"
	key := "documents/" + name
	if _, err := s.storage.Put(ctx, key, tmp, "application/pdf"); err != nil {
		return nil, fmt.Errorf("drafts: store upload: %w", err)
	}

	doc := &store.Document{UserID: p.UserID, Filename: name, OriginalFilename: cleanFilename(f.Name),
		StorageKey: key, SizeBytes: size}
	var created *store.Document
	queued := false
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.CreateDocument(ctx, doc, "uploaded",
			fmt.Sprintf("%s, %s, %d pages", doc.OriginalFilename, pdfdoc.HumanSize(size), pages)); err != nil {
			return err
		}
		if queued, err = s.dispatchProcessing(ctx, p.UserID, doc); err != nil {
			return err
		}
		// Read back before commit: a fast worker cannot have moved it yet.
		created, err = s.store.Document(ctx, doc.ID)
		return err
	})
	if err != nil {
		s.removeFile(ctx, key)
		return nil, err
	}
	return s.processUnlessQueued(ctx, created, queued)
}

// dispatchProcessing enqueues process_pdf for the document's current run
// inside the caller's transaction, noting on the document where it will
// run; false when the queue cannot take it.
func (s *Service) dispatchProcessing(ctx context.Context, by int64, doc *store.Document) (queued bool, err error) {
	_, err = s.queue.Enqueue(ctx, &by, processPayload{DocumentID: doc.ID, Run: doc.ProcessingRun})
	switch {
	case errors.Is(err, jobs.ErrQueueFull):
		return false, s.store.AppendStep(ctx, doc.ID, doc.ProcessingRun, "processing in the request",
			"the job queue cannot take more work")
	case err != nil:
		return false, err
	}
	return true, s.store.AppendStep(ctx, doc.ID, doc.ProcessingRun, "queued", KindProcessPDF)
}

// processUnlessQueued answers an upload or reprocess: the document as
// recorded when its job was queued, else as it is after processing it
// inside the request (the spec's fallback when the queue cannot take it).
func (s *Service) processUnlessQueued(ctx context.Context, doc *store.Document, queued bool) (*Document, error) {
	if queued {
		return toDocument(doc), nil
	}
	// The document is recorded; a processing failure is recorded on it, and
	// a client that hangs up does not leave it half-processed.
	_ = s.process(context.WithoutCancel(ctx), doc.ID, doc.ProcessingRun, nil)
	fresh, err := s.store.Document(ctx, doc.ID)
	if err != nil {
		return nil, err
	}
	return toDocument(fresh), nil
}

// spool copies at most max_upload_size+1 bytes into a temporary file.
func (s *Service) spool(r io.Reader) (*os.File, int64, error) {
	f, err := s.tmp.create("upload-*.pdf")
	if err != nil {
		return nil, 0, err
	}
	n, err := io.Copy(f, io.LimitReader(readTagger{r}, s.cfg.MaxUploadSize+1))
	if err != nil {
		var re readError
		switch {
		case errors.As(err, new(*apperr.Error)):
			return f, n, err
		case errors.As(err, &re):
			return f, n, apperr.BadRequestf("the upload was cut short or is not well-formed multipart: %v", re.err)
		}
		return f, n, fmt.Errorf("drafts: spool upload: %w", err)
	}
	if n > s.cfg.MaxUploadSize {
		return f, n, TooLarge(s.cfg.MaxUploadSize)
	}
	_, err = f.Seek(0, io.SeekStart)
	return f, n, err
}

// readError marks a failure reading the client's body, as opposed to
// writing the temporary file.
type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }
func (e readError) Unwrap() error { return e.err }

type readTagger struct{ r io.Reader }

func (t readTagger) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		if _, ok := apperr.As(err); !ok {
			err = readError{err}
		}
	}
	return n, err
}

// TooLarge is the refusal of a file above the upload limit (400, as the
// spec's Errors table says for the application limit).
func TooLarge(limit int64) *apperr.Error {
	return apperr.BadRequestf("the file is larger than the upload limit of %s (MAX_UPLOAD_SIZE)", pdfdoc.HumanSize(limit))
}

// refusal turns a PDF inspection failure into the caller's 400
// bad_request, saying why in the message: what the bytes hold, or what
// reading them cost the reader child (the envelope carries only the
// spec's codes).
func refusal(err error) error {
	for _, known := range []error{pdfdoc.ErrNotPDF, pdfdoc.ErrUnsupported, pdfdoc.ErrNeedsPassword, pdfdoc.ErrNoPages,
		pdfdoc.ErrMalformed, pdfdoc.ErrTooSlow, pdfdoc.ErrTooLarge, reader.ErrStopped} {
		if errors.Is(err, known) {
			return apperr.BadRequestf("%s", err.Error())
		}
	}
	return err
}

// head is the first bytes of a file, where a PDF header must be.
func head(f *os.File) []byte {
	b := make([]byte, pdfdoc.HeaderWindow)
	n, _ := f.ReadAt(b, 0)
	return b[:n]
}

// cleanFilename keeps the base name a client sent, bounded and printable.
func cleanFilename(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, name)
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "." || name == "/" {
		return "document.pdf"
	}
	return name
}

// removeFile deletes a stored file whose row was not (or is no longer)
// written; a failure leaves an orphan, which is logged.
func (s *Service) removeFile(ctx context.Context, key string) {
	if err := s.storage.Delete(context.WithoutCancel(ctx), key); err != nil {
		s.log.Warn("drafts: could not remove a stored file", "key", key, "error", err)
	}
}
