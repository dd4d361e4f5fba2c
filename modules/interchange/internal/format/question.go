// Package format reads and writes question files (Moodle XML, GIFT) as
// plain values: no database, no HTTP. Every reader is bounded (the caller
// caps the bytes; Limits caps items and fields) and reports each question
// it cannot take with the reason, instead of failing the whole file.
package format

import (
	"fmt"
	"strings"
)

// Question types, the bank's names.
const (
	TypeMCQ    = "mcq"
	TypeFillIn = "fill_in"
)

// AnswerSeparator joins a fill-in question's accepted answers (the bank's
// convention).
const AnswerSeparator = "|"

// Question is one question as the bank and the drafts hold it, plus what
// the files carry around it.
type Question struct {
	Type           string
	Name           string // the file's title for it; not kept by the bank
	Text           string
	Options        []string // mcq only, in order
	OptionFeedback []string // per option, may be empty
	CorrectAnswer  string   // mcq: one of Options; fill-in: alternatives joined by "|"
	Explanation    string   // the general feedback
	Category       string   // the file's category path ("Cardiology/Valves")
	Tags           []string
	// The question's picture and its explanation's (the bank's image_path
	// and explanation_image_path).
	Image, ExplanationImage *Picture
}

// Picture is a picture a question file carries: its name there and its
// bytes.
type Picture struct {
	Name string
	Data []byte
}

// Refusal is a question of the file that is not imported, and why.
type Refusal struct {
	Item   int    // 1-based position among the file's questions
	Name   string // its title in the file, when it has one
	Reason string
}

// Limits bound what one file may make the reader hold.
type Limits struct {
	MaxQuestions  int // questions (and refused items) per file
	MaxFieldBytes int // one text, option or feedback
	MaxOptions    int
	// MaxPictureBytes bounds one picture a file carries (decoded).
	MaxPictureBytes int64
}

// ErrTooMany is the refusal of a file with more questions than allowed.
type ErrTooMany struct{ Max int }

func (e ErrTooMany) Error() string {
	return fmt.Sprintf("the file holds more than %d questions; split it", e.Max)
}

// ErrMalformed is a file that cannot be read at all.
type ErrMalformed struct{ Reason string }

func (e ErrMalformed) Error() string { return e.Reason }

// Result is what a reader found.
type Result struct {
	Questions []Question
	Refused   []Refusal
}

// add checks q against the bank's rules and the limits and files it as a
// question or a refusal.
func (r *Result) add(q Question, item int, lim Limits, why string) {
	if why == "" {
		why = check(q, lim)
	}
	if why != "" {
		r.Refused = append(r.Refused, Refusal{Item: item, Name: q.Name, Reason: why})
		return
	}
	r.Questions = append(r.Questions, q)
}

func (r *Result) count() int { return len(r.Questions) + len(r.Refused) }

// check is the bank's rules for a question, worded for the person who
// exported the file; "" when the question can be imported.
func check(q Question, lim Limits) string {
	fields := append([]string{q.Name, q.Text, q.CorrectAnswer, q.Explanation}, q.Options...)
	fields = append(fields, q.OptionFeedback...)
	for _, f := range fields {
		if len(f) > lim.MaxFieldBytes {
			return fmt.Sprintf("a text is longer than %d bytes", lim.MaxFieldBytes)
		}
	}
	if strings.TrimSpace(q.Text) == "" {
		return "no question text"
	}
	if q.Type == TypeFillIn {
		if strings.TrimSpace(q.CorrectAnswer) == "" {
			return "no answer with full marks"
		}
		return ""
	}
	if len(q.Options) < 2 {
		return "fewer than two options"
	}
	if len(q.Options) > lim.MaxOptions {
		return fmt.Sprintf("more than %d options", lim.MaxOptions)
	}
	seen := map[string]bool{}
	for _, o := range q.Options {
		k := strings.ToLower(strings.TrimSpace(o))
		if k == "" {
			return "an option is blank"
		}
		if seen[k] {
			return "an option appears twice"
		}
		seen[k] = true
	}
	if q.CorrectAnswer == "" {
		return "no option has full marks"
	}
	return ""
}
