package reader

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
)

// grace is what the parent allows beyond the child's own deadlines
// (process start, the child's own cleanup) before it kills the child.
const grace = 5 * time.Second

// maxLine bounds one event line: a page's text is bounded by what its
// streams may inflate to, so a longer line is a child gone wrong.
const maxLine = 64 << 20

// Runner starts reader children.
type Runner struct {
	// Command runs a child: this executable with the argument "pdf".
	Command []string
	// Spool is where each child gets its scratch directory.
	Spool  string
	Limits Limits
}

// NewRunner runs this executable as the child.
func NewRunner(spool string, l Limits) (*Runner, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("drafts: the PDF reader needs this executable's path: %w", err)
	}
	return &Runner{Command: []string{exe, "pdf"}, Spool: spool, Limits: l}, nil
}

// Inspect opens the file at path (repairing a copy if need be) and counts
// its pages.
func (r *Runner) Inspect(ctx context.Context, path string) (pages int, err error) {
	err = r.run(ctx, Request{Op: OpInspect, Path: path}, func(e Event) error {
		pages = e.Pages
		return nil
	})
	return pages, err
}

// Read reads the pages of the file at path, calling each with every
// event the child sends ("opened" again means start over: the child
// repaired the file part-way through).
func (r *Runner) Read(ctx context.Context, req Request, each func(Event) error) error {
	req.Op = OpRead
	return r.run(ctx, req, each)
}

// run starts one child and follows it to its end. The child must send
// its next event within the deadline of the step it is on (opening, or
// the next page), or it is killed with all it started.
func (r *Runner) run(ctx context.Context, req Request, each func(Event) error) error {
	scratch, err := os.MkdirTemp(r.Spool, "reader-*")
	if err != nil {
		return fmt.Errorf("drafts: reader scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)
	req.Scratch, req.Limits = scratch, r.Limits
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	cmd := exec.Command(r.Command[0], r.Command[1:]...)
	cmd.Stdin = bytes.NewReader(body)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // to kill what it starts too
	stderr := &limited{n: 16 << 10}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("drafts: cannot start the PDF reader: %w", err)
	}
	events := make(chan Event)
	protocol := make(chan error, 1)
	go func() { protocol <- scan(stdout, events) }()

	f := follower{r: r, req: req, step: "opening it"}
	timer := time.NewTimer(f.budget())
	defer timer.Stop()
	var answer error
	answered := false
loop:
	for {
		select {
		case e, ok := <-events:
			if !ok {
				break loop
			}
			switch e.Kind {
			case EventDone:
				answered = true
			case EventFailed:
				answered, answer = true, failure(e.Reason, e.Message)
			default:
				if err := each(e); err != nil {
					kill(cmd)
					answered, answer = true, err
				}
			}
			f.advance(e)
			timer.Reset(f.budget())
		case <-timer.C:
			kill(cmd)
			answered, answer = true, fmt.Errorf("%w: %s took longer than %s; the reader was stopped", ErrStopped, f.step, f.budget()-grace)
		case <-ctx.Done():
			kill(cmd)
			answered, answer = true, ctx.Err()
		}
		if answered && answer != nil {
			break
		}
	}
	go func() {
		for range events { // let the scanner finish after a kill
		}
	}()
	werr := cmd.Wait()
	if answered {
		return answer
	}
	if perr := <-protocol; perr != nil {
		return fmt.Errorf("%w: %v", ErrStopped, perr)
	}
	return stopped(r.Limits, cmd.ProcessState, werr, stderr.String())
}

// follower knows which step the child is on, for its deadline and for
// the message when it misses it.
type follower struct {
	r    *Runner
	req  Request
	step string
}

func (f *follower) advance(e Event) {
	switch e.Kind {
	case EventOpened:
		f.step = fmt.Sprintf("reading page %d", max(f.req.First, 1))
	case EventPage:
		f.step = fmt.Sprintf("reading page %d", e.Page+1)
	}
}

func (f *follower) budget() time.Duration {
	l := f.r.Limits
	if strings.HasPrefix(f.step, "opening") {
		return 2*l.InspectTimeout + grace // the fast open, then a repair
	}
	d := l.PageTimeout + grace
	if f.req.OCR != OCROff {
		d += l.OCRTimeout
	}
	return d
}

// scan decodes the child's events until its output ends.
func scan(out io.Reader, events chan<- Event) error {
	defer close(events)
	br := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			var e Event
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return fmt.Errorf("the reader answered something unreadable: %v", jerr)
			}
			events <- e
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, errors.New("the reader sent a line longer than 64 MiB")
		}
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// stopped explains a child that ended without answering.
func stopped(l Limits, st *os.ProcessState, werr error, stderr string) error {
	var used time.Duration
	var ws syscall.WaitStatus
	if st != nil {
		used = st.UserTime() + st.SystemTime()
		ws, _ = st.Sys().(syscall.WaitStatus)
	}
	lower := strings.ToLower(stderr)
	var why string
	switch {
	case strings.Contains(stderr, cpuMarker) || ws.Signaled() && ws.Signal() == syscall.SIGXCPU ||
		l.CPU > 0 && ws.Signaled() && used >= l.CPU:
		why = fmt.Sprintf("reading it used more than %s of processor time (drafts.reader_cpu)", l.CPU)
	case strings.Contains(lower, "out of memory") || strings.Contains(lower, "cannot allocate memory") ||
		// A thread's stack that the address-space limit cannot map: the Go
		// runtime and cgo say so in their own words, then abort.
		strings.Contains(lower, "pthread_create failed") || strings.Contains(lower, "failed to create new os thread"):
		why = fmt.Sprintf("reading it needed more than %s of memory (drafts.reader_memory)", pdfdoc.HumanSize(l.Memory))
	case strings.Contains(lower, "stack exceeds") || strings.Contains(lower, "stack overflow"):
		why = "it nests structures deeper than the reader follows"
	case ws.Signaled():
		why = fmt.Sprintf("the reader was killed (%s)", ws.Signal())
	default:
		why = fmt.Sprintf("the reader stopped unexpectedly (%v)", werr)
		if first := firstLine(stderr); first != "" {
			why += ": " + first
		}
	}
	return fmt.Errorf("%w: %s", ErrStopped, why)
}

// firstLine is what a crash says first ("fatal error: ...", "panic:
// ..."); what follows is goroutine stacks and registers.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
