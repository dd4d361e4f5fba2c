// Package pdfdoc reads uploaded PDFs: it decides from the bytes alone
// whether a file is a PDF this service can read and turns each page into
// plain text lines. Nothing here trusts a file name or a content type.
//
// Both jobs use ledongthuc/pdf, which reads lazily through an io.ReaderAt:
// checking an upload reads the header, the cross-reference table, the
// trailer and the page tree, never the page contents, so a 50 MB upload is
// checked in a few MiB of memory (pdfcpu's validation loads every stream
// and held about twice the file; see docs/decisions/drafts.md).
package pdfdoc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
)

// HeaderWindow is how far into a file readers look for the %PDF- header.
const HeaderWindow = 1024

// Reasons a file is refused.
var (
	ErrNotPDF    = errors.New("the file is not a PDF (no %PDF- header in its first bytes)")
	ErrEncrypted = errors.New("the PDF is password-protected or encrypted; remove the protection and upload it again")
	ErrNoPages   = errors.New("the PDF has no pages")
	ErrMalformed = errors.New("the PDF is damaged and cannot be read")
	// ErrUnsupported is a PDF the reader cannot take: a version after 1.7,
	// or bytes before the header.
	ErrUnsupported = errors.New("the PDF's version or layout cannot be read here (PDF 1.0 to 1.7, starting with its header, is expected)")
)

// HasHeader reports whether head (the file's first bytes) carries a PDF
// header within the window readers accept.
func HasHeader(head []byte) bool {
	if len(head) > HeaderWindow {
		head = head[:HeaderWindow]
	}
	return bytes.Contains(head, []byte("%PDF-"))
}

// Inspect checks the document's structure (header, cross-reference table,
// trailer, page tree) and returns its real page count, or one of the errors
// above (ErrMalformed wraps the reason; ErrTooSlow once ctx is done).
func Inspect(ctx context.Context, ra io.ReaderAt, size int64) (pages int, err error) {
	head := make([]byte, min(size, HeaderWindow))
	if _, err := ra.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	if !HasHeader(head) {
		return 0, ErrNotPDF
	}
	if !readableHeader(head) {
		return 0, ErrUnsupported
	}
	r, err := Open(ctx, ra, size, Limits{})
	if err != nil {
		return 0, err
	}
	return r.NumPages(), nil
}

// readableHeader is the header the reader accepts: %PDF-1.0 to %PDF-1.7
// at the very start, then a line end.
func readableHeader(head []byte) bool {
	return len(head) >= 9 && bytes.HasPrefix(head, []byte("%PDF-1.")) &&
		head[7] >= '0' && head[7] <= '7' && (head[8] == '\r' || head[8] == '\n')
}

// classify turns the reader's own errors into ours.
func classify(err error) error {
	if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(strings.ToLower(err.Error()), "encrypt") {
		return ErrEncrypted
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}
