package pdfdoc

import (
	"fmt"
	"io"

	"github.com/ledongthuc/pdf"
)

// Reader reads page text from a PDF held in a file (or any ReaderAt):
// pages are decoded one at a time, so memory follows the largest page, not
// the file.
type Reader struct{ r *pdf.Reader }

// Open starts reading a PDF of the given size.
func Open(ra io.ReaderAt, size int64) (r *Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%w: %v", ErrMalformed, p)
		}
	}()
	pr, err := pdf.NewReader(ra, size)
	if err != nil {
		return nil, classify(err)
	}
	return &Reader{r: pr}, nil
}

// NumPages is the length of the page tree.
func (r *Reader) NumPages() int { return r.r.NumPage() }

// PageText returns page n (1-based) as lines of text in reading order.
func (r *Reader) PageText(n int) (text string, err error) {
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("page %d: %w: %v", n, ErrMalformed, p)
		}
	}()
	page := r.r.Page(n)
	if page.V.IsNull() {
		return "", fmt.Errorf("page %d: %w: missing from the page tree", n, ErrMalformed)
	}
	return newWalker(page).text(), nil
}
