package reader

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
)

// cpuMarker is what a child writes on standard error when its CPU limit
// signals it, so the parent can say so.
const cpuMarker = "pdf reader: processor time limit reached"

// maxStack bounds one goroutine's stack in the child: a file nested deep
// enough to recurse past it crashes the child at once instead of growing
// a gigabyte of stack first.
const maxStack = 64 << 20

// Main is the child: it reads one Request from stdin, limits itself,
// does the work and writes Events to stdout. Its exit status is 0 when it
// answered (a failed document is an answer), 2 when the request was bad.
func Main(stdin io.Reader, stdout io.Writer) int {
	var req Request
	if err := json.NewDecoder(io.LimitReader(stdin, 1<<20)).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "pdf reader: bad request:", err)
		return 2
	}
	if err := limitSelf(req.Limits); err != nil {
		fmt.Fprintln(os.Stderr, "pdf reader: cannot set limits:", err)
		return 2
	}
	c := &child{req: req, out: json.NewEncoder(stdout)}
	if err := c.run(); err != nil {
		c.emit(Event{Kind: EventFailed, Reason: reasonOf(err), Message: err.Error()})
		return 0
	}
	c.emit(Event{Kind: EventDone})
	return 0
}

// limitSelf sets the child's rlimits before it touches the file. Memory
// is RLIMIT_DATA above what the process holds now (a Go program reserves
// address space it never uses, which RLIMIT_AS would count), with the
// garbage collector told the same budget; CPU is RLIMIT_CPU, whose
// warning signal ends the child with a message and whose hard limit, five
// seconds later, kills it. Programs the child starts (pdftoppm,
// tesseract) inherit both.
func limitSelf(l Limits) error {
	debug.SetMaxStack(maxStack)
	if l.CPU > 0 {
		secs := uint64(math.Ceil(l.CPU.Seconds()))
		xcpu := make(chan os.Signal, 1)
		signal.Notify(xcpu, syscall.SIGXCPU)
		go func() {
			<-xcpu
			fmt.Fprintln(os.Stderr, cpuMarker)
			os.Exit(3)
		}()
		if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: secs, Max: secs + 5}); err != nil {
			return err
		}
	}
	if l.Memory > 0 {
		limit := uint64(dataSize() + l.Memory)
		debug.SetMemoryLimit(l.Memory)
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			return err
		}
	}
	return nil
}

// dataSize is the process's data segment now (VmData), in bytes.
func dataSize() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmData:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

type child struct {
	req Request
	out *json.Encoder
	// path is the file being read: the upload, or its repaired copy.
	path     string
	repaired bool
}

func (c *child) emit(e Event) {
	if err := c.out.Encode(e); err != nil {
		os.Exit(1) // the parent is gone
	}
}

func (c *child) run() error {
	r, err := c.open()
	if err != nil {
		return err
	}
	if c.req.Op == OpInspect {
		c.emit(Event{Kind: EventOpened, Pages: r.NumPages(), Repaired: c.repaired})
		return nil
	}
	for r != nil && err == nil {
		// A page the fast reader could not take makes readPages return
		// the repaired copy, read again from the start.
		r, err = c.readPages(r)
	}
	return err
}

// open opens the file, repairing it when the fast reader cannot.
func (c *child) open() (*pdfdoc.Reader, error) {
	c.path = c.req.Path
	r, err := c.openPath(c.path)
	if err == nil || !pdfdoc.Repairable(err) {
		return r, err
	}
	return c.repair(err)
}

func (c *child) openPath(path string) (*pdfdoc.Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.req.InspectTimeout)
	defer cancel()
	return pdfdoc.Open(ctx, f, st.Size(), c.req.Inflate) // the file stays open until the child exits
}

// repair rewrites the original with pdfdoc.Repair into the scratch
// directory and opens that. first is why the fast reader refused the
// file (nil when a page failed): when the repair fails too, first is the
// better reason, unless the repair found a password or a limit.
func (c *child) repair(first error) (*pdfdoc.Reader, error) {
	if c.repaired {
		return nil, first
	}
	c.repaired = true
	src, err := os.Open(c.req.Path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(c.req.Scratch, "repaired.pdf")
	dst, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer dst.Close()
	ctx, cancel := context.WithTimeout(context.Background(), c.req.InspectTimeout)
	defer cancel()
	rerr := pdfdoc.Repair(ctx, src, st.Size(), dst, c.req.Inflate)
	if rerr == nil {
		var r *pdfdoc.Reader
		if r, rerr = c.openPath(path); rerr == nil {
			c.path = path
			return r, nil
		}
	}
	if first == nil || errors.Is(rerr, pdfdoc.ErrNeedsPassword) || errors.Is(rerr, pdfdoc.ErrTooSlow) ||
		errors.Is(rerr, pdfdoc.ErrTooLarge) || errors.Is(first, pdfdoc.ErrUnsupported) {
		return nil, rerr
	}
	return nil, first
}

// readPages reads the requested pages, sending each. When a page fails in
// a way a repair may mend, and the repair works, it stops and returns the
// repaired file's reader to start again with; otherwise the page is sent
// with its problem and no text.
func (c *child) readPages(r *pdfdoc.Reader) (restart *pdfdoc.Reader, err error) {
	n := r.NumPages()
	first, last := max(c.req.First, 1), n
	if c.req.Last > 0 {
		last = min(c.req.Last, n)
	}
	c.emit(Event{Kind: EventOpened, Pages: n, Repaired: c.repaired})
	for p := first; p <= last; p++ {
		ctx, cancel := context.WithTimeout(context.Background(), c.req.PageTimeout)
		page, err := r.ReadPage(ctx, p)
		cancel()
		ev := Event{Kind: EventPage, Page: p, Text: page.Text}
		switch {
		case errors.Is(err, pdfdoc.ErrTooSlow) || errors.Is(err, pdfdoc.ErrTooLarge):
			return nil, err // hostile, not merely damaged: the document fails
		case err != nil && !c.repaired && pdfdoc.Repairable(err):
			if rr, rerr := c.repair(nil); rerr == nil {
				return rr, nil
			}
			ev.Problem, ev.Unreadable = err.Error(), true
		case err != nil:
			ev.Problem, ev.Unreadable = err.Error(), true
		}
		if c.req.OCR == OCRAll || c.req.OCR == OCRAuto && !hasWords(page.Text) && page.ImageCover >= scanCover {
			text, err := c.ocr(p, page.Width, page.Height)
			switch {
			case err != nil && c.req.OCR == OCRAll:
				return nil, err
			case err != nil:
				ev.Problem = err.Error()
			default:
				ev.Text, ev.OCR = text, true
			}
		}
		c.emit(ev)
	}
	return nil, nil
}

// scanCover is how much of a page without text its images must cover for
// it to be taken for a scan and OCR'd automatically: a logo or a stamp on
// an empty page is not worth the seconds OCR costs.
const scanCover = 0.25

// hasWords: a text layer with at least one letter or digit.
func hasWords(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
