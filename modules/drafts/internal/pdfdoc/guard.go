package pdfdoc

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// ErrTooSlow is a PDF whose reading ran past its deadline.
var ErrTooSlow = errors.New("the PDF takes too long to read")

// stopped is raised (as a panic) from inside the PDF library to abandon a
// read: the caller's deadline passed, or a limit was reached. The library
// cannot be given a context, but every loop it can spin in reads the file,
// so the file itself carries the deadline. It is a runtime.Error so the
// library's own recover, which swallows parse errors and re-raises runtime
// errors, lets it through to ours. err is what the caller gets.
type stopped struct{ err error }

func (s stopped) Error() string { return s.err.Error() }
func (stopped) RuntimeError()   {}

// guarded is the file as the library sees it: every read first checks the
// context of the call in progress.
type guarded struct {
	ra  io.ReaderAt
	ctx context.Context
}

func (g *guarded) ReadAt(p []byte, off int64) (int, error) {
	checkpoint(g.ctx)
	return g.ra.ReadAt(p, off)
}

// checkpoint raises stopped once ctx is done; the loops of this package
// call it so that work without file reads is bounded too.
func checkpoint(ctx context.Context) {
	if err := ctx.Err(); err != nil {
		panic(stopped{fmt.Errorf("%w: %v", ErrTooSlow, err)})
	}
}

// rescue turns a panic from the library (or from this package) into an
// error: an abandoned read is its own reason, anything else ErrMalformed
// with the library's reason. what names the step for the message.
func rescue(err *error, what string) {
	p := recover()
	if p == nil {
		return
	}
	if s, ok := p.(stopped); ok {
		*err = fmt.Errorf("%s: %w", what, s.err)
		return
	}
	*err = fmt.Errorf("%w: %s: %v", ErrMalformed, what, p)
}
