// Package pdfdoc reads uploaded PDFs: it decides from the bytes alone
// whether a file is a PDF this service can read and turns each page into
// plain text lines in reading order. Nothing here trusts a file name or a
// content type.
//
// The fast path is ledongthuc/pdf's object reader, which reads lazily
// through an io.ReaderAt, with this package's own content-stream lexer,
// font decoding and layout on top. Files it cannot take (damaged
// cross-reference tables, AES-256, filters it lacks, PDF 2.0 headers) are
// rewritten by Repair with pdfcpu, which holds the whole file in memory:
// the service runs all of it in a child process under limits (see
// modules/drafts/internal/reader).
package pdfdoc

import (
	"bytes"
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
	ErrNotPDF = errors.New("the file is not a PDF (no %PDF- header in its first bytes)")
	// ErrNeedsPassword is a file encrypted with a user password: no reader
	// opens it without one.
	ErrNeedsPassword = errors.New("the PDF needs a password to open; remove the password (keep any owner restrictions if you like) and upload it again")
	ErrNoPages       = errors.New("the PDF has no pages")
	ErrMalformed     = errors.New("the PDF is damaged and cannot be read")
	// ErrUnsupported is a layout the fast reader does not take (bytes
	// before the header, an unknown version): Repair rewrites it.
	ErrUnsupported = errors.New("the PDF's version or layout cannot be read")
	// errEncryption is encryption the fast reader cannot open (AES-256):
	// Repair decrypts it when the user password is empty.
	errEncryption = fmt.Errorf("%w: its encryption needs the repairing reader", ErrUnsupported)
)

// HasHeader reports whether head (the file's first bytes) carries a PDF
// header within the window readers accept.
func HasHeader(head []byte) bool {
	if len(head) > HeaderWindow {
		head = head[:HeaderWindow]
	}
	return bytes.Contains(head, []byte("%PDF-"))
}

// readableHeader is a header the fast reader takes: %PDF-1.x or %PDF-2.x
// at the very start, then a line end (versions it does not know are
// shown to it as 1.7 by versionShim: their syntax is the same).
func readableHeader(head []byte) bool {
	return len(head) >= 9 && (bytes.HasPrefix(head, []byte("%PDF-1.")) || bytes.HasPrefix(head, []byte("%PDF-2."))) &&
		head[7] >= '0' && head[7] <= '9' && (head[8] == '\r' || head[8] == '\n' || head[8] == ' ')
}

// versionShim shows the file's header to the library as %PDF-1.7, the
// newest it takes: PDF 2.0 and the odd 1.8 read like 1.7 for text.
type versionShim struct{ ra io.ReaderAt }

func (v versionShim) ReadAt(p []byte, off int64) (int, error) {
	n, err := v.ra.ReadAt(p, off)
	const want = "%PDF-1.7\n"
	for i := 0; i < n && off+int64(i) < int64(len(want)); i++ {
		p[i] = want[off+int64(i)]
	}
	return n, err
}

// classify turns the library's own errors into ours.
func classify(err error) error {
	msg := strings.ToLower(err.Error())
	switch {
	case errors.Is(err, pdf.ErrInvalidPassword):
		return ErrNeedsPassword
	case strings.Contains(msg, "encrypt"):
		return fmt.Errorf("%w (%v)", errEncryption, err)
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}
