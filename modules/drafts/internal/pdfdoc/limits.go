package pdfdoc

import (
	"context"
	"errors"
	"fmt"

	"github.com/ledongthuc/pdf"
)

// ErrTooLarge is a PDF whose compressed streams inflate past a limit.
var ErrTooLarge = errors.New("the PDF's content inflates beyond the allowed size")

// Limits bound what reading a document's text may decode; zero is no limit.
type Limits struct {
	// MaxStreamBytes caps one stream's inflated bytes (drafts.max_stream_bytes).
	MaxStreamBytes int64
	// MaxDocumentBytes caps the inflated bytes of every stream read for the
	// document together (drafts.max_document_bytes).
	MaxDocumentBytes int64
}

// readStream decodes a stream (or an array of them, as /Contents may
// be), counting the bytes as they come: a small stream that inflates to
// gigabytes is refused after reading at most the limit, with a reason
// naming it. A stream that breaks off mid-way (a damaged deflate) gives
// what was decoded before the break, as readers show it. It raises
// stopped (a panic) so that it can abandon a page in progress.
func (r *Reader) readStream(ctx context.Context, v pdf.Value, what string) []byte {
	if v.Kind() == pdf.Array {
		var out []byte
		for i := 0; i < v.Len(); i++ {
			out = append(out, r.readStream(ctx, v.Index(i), what)...)
			out = append(out, '\n')
		}
		return out
	}
	if v.Kind() != pdf.Stream {
		return nil
	}
	if r.buf == nil {
		r.buf = make([]byte, 32<<10)
	}
	rd := v.Reader()
	defer rd.Close()
	var out []byte
	for {
		checkpoint(ctx)
		m, err := rd.Read(r.buf)
		out = append(out, r.buf[:m]...)
		r.inflated += int64(m)
		if r.lim.MaxStreamBytes > 0 && int64(len(out)) > r.lim.MaxStreamBytes {
			panic(stopped{fmt.Errorf("%w: %s inflates to more than %s (drafts.max_stream_bytes)",
				ErrTooLarge, what, HumanSize(r.lim.MaxStreamBytes))})
		}
		if r.lim.MaxDocumentBytes > 0 && r.inflated > r.lim.MaxDocumentBytes {
			panic(stopped{fmt.Errorf("%w: its streams inflate to more than %s in all (drafts.max_document_bytes)",
				ErrTooLarge, HumanSize(r.lim.MaxDocumentBytes))})
		}
		if err != nil {
			return out
		}
	}
}
