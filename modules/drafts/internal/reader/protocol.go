// Package reader reads PDFs in a child process of the server or worker:
// the same binary run as `rounds pdf`, under a memory and CPU limit it
// sets on itself (setrlimit) before it opens the file, and a deadline the
// parent keeps. A file that makes the reader allocate, loop or crash takes
// down only that child: the parent fails that one document with a reason
// and goes on with the next.
//
// The parent writes one Request (JSON) on the child's standard input; the
// child answers with Events, one JSON object a line, on its standard
// output: "opened" (page count), a "page" event per page read, then
// "done" or a "failed" event. A child that repairs the file part-way
// through sends "opened" again and reads the pages afresh.
package reader

import (
	"errors"
	"time"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
)

// Operations a child performs.
const (
	OpInspect = "inspect" // open the file (repairing it if need be), count its pages
	OpRead    = "read"    // and read the text of every page (or a range)
)

// OCR modes of a read.
const (
	OCROff  = ""     // text layer only
	OCRAuto = "auto" // pages with no text that images cover (scans) are OCR'd
	OCRAll  = "all"  // every page read is OCR'd (the "ocr" reading mode)
)

// Request is what the parent asks of one child.
type Request struct {
	Op string `json:"op"`
	// Path is the PDF, a file in the parent's spool directory; Scratch a
	// directory of its own for the repaired copy and page images, which
	// the parent removes when the child is over.
	Path    string `json:"path"`
	Scratch string `json:"scratch"`
	// First and Last bound the pages read (0: from the first, to the last).
	First int    `json:"first,omitempty"`
	Last  int    `json:"last,omitempty"`
	OCR   string `json:"ocr,omitempty"`
	Limits
}

// Limits bound one child.
type Limits struct {
	Inflate        pdfdoc.Limits `json:"inflate"`
	InspectTimeout time.Duration `json:"inspect_timeout"`
	PageTimeout    time.Duration `json:"page_timeout"`
	OCRTimeout     time.Duration `json:"ocr_timeout"`
	OCRLanguage    string        `json:"ocr_language"`
	// Memory is what the child may allocate beyond what it holds at
	// start (RLIMIT_DATA); CPU the processor time it may use (RLIMIT_CPU).
	Memory int64         `json:"memory"`
	CPU    time.Duration `json:"cpu"`
}

// Event is one line of a child's answer.
type Event struct {
	Kind string `json:"kind"` // opened, page, done, failed
	// opened
	Pages    int  `json:"pages,omitempty"`
	Repaired bool `json:"repaired,omitempty"`
	// page
	Page int    `json:"page,omitempty"`
	Text string `json:"text,omitempty"`
	OCR  bool   `json:"ocr,omitempty"`
	// Problem says why the page has no text (or not all it shows): it
	// could not be read (Unreadable), or its OCR failed.
	Problem    string `json:"problem,omitempty"`
	Unreadable bool   `json:"unreadable,omitempty"`
	// failed
	Reason  string `json:"reason,omitempty"` // one of the reasons below
	Message string `json:"message,omitempty"`
}

// Event kinds.
const (
	EventOpened = "opened"
	EventPage   = "page"
	EventDone   = "done"
	EventFailed = "failed"
)

// reasons name the sentinel a failure wraps, across the process boundary.
var reasons = []struct {
	name string
	err  error
}{
	{"not_pdf", pdfdoc.ErrNotPDF},
	{"needs_password", pdfdoc.ErrNeedsPassword},
	{"no_pages", pdfdoc.ErrNoPages},
	{"too_slow", pdfdoc.ErrTooSlow},
	{"too_large", pdfdoc.ErrTooLarge},
	{"unsupported", pdfdoc.ErrUnsupported},
	{"malformed", pdfdoc.ErrMalformed},
	{"ocr", ErrOCR},
}

// ErrOCR is a page that needed OCR the service could not give it.
var ErrOCR = errors.New("the page could not be read by OCR")

// ErrStopped is a child that stopped without answering: killed at its
// deadline or by its limits, or crashed. Its message says which.
var ErrStopped = errors.New("the PDF reader stopped")

func reasonOf(err error) string {
	for _, r := range reasons {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return "malformed"
}

// Failure is a failed child's answer as an error wrapping its sentinel.
type Failure struct {
	sentinel error
	msg      string
}

func (f *Failure) Error() string { return f.msg }
func (f *Failure) Unwrap() error { return f.sentinel }

func failure(reason, msg string) error {
	s := pdfdoc.ErrMalformed
	for _, r := range reasons {
		if r.name == reason {
			s = r.err
		}
	}
	return &Failure{sentinel: s, msg: msg}
}
