// Package extraction is the contract between the extract_quiz pipeline and
// whatever reads questions out of a section: the built-in text extractor
// today, a model-backed extractor when the AI module provides one. It is a
// leaf package so that both the drafts module and the AI module can import
// it.
package extraction

import (
	"context"
	"errors"
	"io"
)

// Reading modes a caller may choose.
const (
	// ReadingText reads the PDF's text layer (what process_pdf recorded).
	ReadingText = "text"
	// ReadingOCR reads the pages by OCR (Tesseract) and hands the text to
	// the extractor as it would a text layer: for scanned papers.
	ReadingOCR = "ocr"
	// ReadingVision reads rendered pages; only a model extractor can.
	ReadingVision = "vision"
)

// BuiltinModel names the built-in extractor as a model choice.
const BuiltinModel = "builtin"

// Question types, as the bank names them.
const (
	TypeMCQ    = "mcq"
	TypeFillIn = "fill_in"
)

// Page is the text layer of one page.
type Page struct {
	Number int
	Text   string
}

// Input is one section to read.
type Input struct {
	DocumentID  int64
	FirstPage   int
	LastPage    int
	Pages       []Page // the section's pages in order; Text may be empty
	ReadingMode string
	Model       string
	// OpenPDF streams the original file, for extractors that read page
	// images. The caller closes what it returns.
	OpenPDF func(ctx context.Context) (io.ReadCloser, error)
	// Progress records a step clients can poll; once the job is cancelled it
	// returns an error, which the extractor must return.
	Progress func(ctx context.Context, name, detail string) error
}

// Question is one question found.
type Question struct {
	Type          string // TypeMCQ or TypeFillIn
	Text          string
	Options       []string
	CorrectAnswer string // for MCQ the text of the correct option when known
	Explanation   string
	Page          int // where the question starts (0 when unknown)
}

// Extractor reads questions out of a section.
type Extractor interface {
	// Name is recorded on the batch (for example "builtin" or a model id).
	Name() string
	Extract(ctx context.Context, in Input) ([]Question, error)
}

// ErrNoModel is what a Models port answers when no extraction model is
// configured for the choice.
var ErrNoModel = errors.New("extraction: no extraction model configured")

// ErrUnsupportedMode is what a Models port answers when the chosen model
// cannot read in the requested mode.
var ErrUnsupportedMode = errors.New("extraction: the model cannot read in this mode")

// Models is the port a model-backed provider fills (the AI module).
type Models interface {
	// Extractor returns the extractor for model ("" means the configured
	// default extraction model) reading in readingMode; ErrNoModel when
	// nothing is configured for that choice, ErrUnsupportedMode when the
	// model cannot read that way.
	Extractor(ctx context.Context, model, readingMode string) (Extractor, error)
}
