package pdfdoc

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ledongthuc/pdf"
)

// Reader reads page text from a PDF held in a file (or any ReaderAt):
// pages are decoded one at a time, so memory follows the largest page, not
// the file.
type Reader struct {
	r     *pdf.Reader
	file  *guarded
	pages []pdf.Value
	lim   Limits
	// inflated counts the stream bytes decoded so far, for MaxDocumentBytes.
	inflated int64
	buf      []byte
}

// Open reads the cross-reference table and trailer and walks the page
// tree, all before ctx is done. lim bounds later PageText calls.
func Open(ctx context.Context, ra io.ReaderAt, size int64, lim Limits) (r *Reader, err error) {
	defer rescue(&err, "reading its structure")
	file := &guarded{ra: ra, ctx: ctx}
	if err := checkXref(ctx, file, size); err != nil {
		return nil, err
	}
	pr, err := pdf.NewReader(file, size)
	var abandoned stopped
	if errors.As(err, &abandoned) { // the library recovered our own panic
		return nil, abandoned.err
	}
	if err != nil {
		return nil, classify(err)
	}
	if !pr.Trailer().Key("Encrypt").IsNull() {
		// Readable without a password but still encrypted: refuse it the
		// same way, its text layer cannot be relied on.
		return nil, ErrEncrypted
	}
	pages, err := walkPages(ctx, pr.Trailer(), size)
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, ErrNoPages
	}
	return &Reader{r: pr, file: file, pages: pages, lim: lim}, nil
}

// NumPages is the number of pages the page tree really holds.
func (r *Reader) NumPages() int { return len(r.pages) }

// PageText returns page n (1-based) as lines of text in reading order,
// reading nothing once ctx is done (ErrTooSlow) and no more than the
// limits allow (ErrTooLarge). Other failures wrap ErrMalformed.
func (r *Reader) PageText(ctx context.Context, n int) (text string, err error) {
	defer rescue(&err, fmt.Sprintf("page %d", n))
	if n < 1 || n > len(r.pages) {
		return "", fmt.Errorf("%w: no page %d", ErrMalformed, n)
	}
	r.file.ctx = ctx
	return newWalker(ctx, r, pdf.Page{V: r.pages[n-1]}).text(), nil
}
