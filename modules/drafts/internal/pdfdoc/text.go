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
	fonts    map[string]*font
}

// Open reads the cross-reference table and trailer and walks the page
// tree, all before ctx is done. lim bounds later ReadPage calls. A file
// encrypted with an empty user password (RC4 or AES-128, what the library
// decrypts) opens as any other; one that needs a password is
// ErrNeedsPassword. Errors Repairable names are worth a Repair.
func Open(ctx context.Context, ra io.ReaderAt, size int64, lim Limits) (r *Reader, err error) {
	defer rescue(&err, "reading its structure")
	head := make([]byte, min(size, HeaderWindow))
	if _, err := ra.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if !HasHeader(head) {
		return nil, ErrNotPDF
	}
	if !readableHeader(head) {
		return nil, ErrUnsupported
	}
	file := &guarded{ra: versionShim{ra}, ctx: ctx}
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

// Page is what a page shows.
type Page struct {
	// Text is the page's lines in reading order, cleaned (see Clean).
	Text string
	// Images counts the images it paints, and ImageCover is the share of
	// the page they cover (0 to 1): a scanned page is one image over the
	// whole page and no text.
	Images     int
	ImageCover float64
	// Width and Height are its visible size in points (a US Letter page
	// when it states none).
	Width, Height float64
}

// ReadPage reads page n (1-based), reading nothing once ctx is done
// (ErrTooSlow) and no more than the limits allow (ErrTooLarge). Other
// failures wrap ErrMalformed.
func (r *Reader) ReadPage(ctx context.Context, n int) (p Page, err error) {
	defer rescue(&err, fmt.Sprintf("page %d", n))
	if n < 1 || n > len(r.pages) {
		return Page{}, fmt.Errorf("%w: no page %d", ErrMalformed, n)
	}
	r.file.ctx = ctx
	page := pdf.Page{V: r.pages[n-1]}
	w := newWalker(ctx, r)
	w.page.box, w.page.boxed = visibleBox(page.V)
	width, height := 612.0, 792.0
	if w.page.boxed {
		width, height = w.page.box[2]-w.page.box[0], w.page.box[3]-w.page.box[1]
	}
	w.run(r.readStream(ctx, page.V.Key("Contents"), "the page's content stream"), page.Resources(), identity)
	w.annotations(page.V.Key("Annots"), identity)
	return Page{Text: w.page.text(), Images: w.images, ImageCover: min(w.imageArea/(width*height), 1),
		Width: width, Height: height}, nil
}

// visibleBox is the page's crop box within its media box (inherited from
// the page tree like every box), normalised to x0 < x1, y0 < y1.
func visibleBox(page pdf.Value) ([4]float64, bool) {
	media, okM := inheritedBox(page, "MediaBox")
	crop, okC := inheritedBox(page, "CropBox")
	switch {
	case okM && okC:
		return [4]float64{max(media[0], crop[0]), max(media[1], crop[1]), min(media[2], crop[2]), min(media[3], crop[3])},
			crop[0] < media[2] && crop[2] > media[0] && crop[1] < media[3] && crop[3] > media[1]
	case okC:
		return crop, true
	}
	return media, okM
}

func inheritedBox(v pdf.Value, key string) ([4]float64, bool) {
	for depth := 0; depth <= maxTreeDepth && v.Kind() == pdf.Dict; depth++ {
		if b := v.Key(key); b.Len() == 4 {
			x0, y0, x1, y1 := b.Index(0).Float64(), b.Index(1).Float64(), b.Index(2).Float64(), b.Index(3).Float64()
			box := [4]float64{min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)}
			return box, box[2] > box[0] && box[3] > box[1]
		}
		v = v.Key("Parent")
	}
	return [4]float64{}, false
}
