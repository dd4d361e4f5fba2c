// Package review holds the rules a draft must pass before it may become a
// bank question: the readiness checks printed per draft when an acceptance
// is refused, and the normalisation of edited options.
package review

import (
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/extraction"
)

// Question types: the extraction contract's names (the bank's).
const (
	TypeMCQ    = extraction.TypeMCQ
	TypeFillIn = extraction.TypeFillIn
)

// The readiness reasons, worded as the moderator reads them.
const (
	NoText          = "no question text"
	FewOptions      = "fewer than two options"
	NoAnswerMarked  = "no correct answer marked"
	AnswerNotOption = "correct answer is not one of the options"
	NoAnswer        = "no correct answer"
	// DuplicateOption goes beyond the spec's five: the bank refuses an
	// option listed twice, so the draft is not ready either.
	DuplicateOption = "an option appears twice"
)

// Draft is what the checks look at.
type Draft struct {
	Type          string
	Text          string
	Options       []string
	CorrectAnswer string
}

// Problems lists why d cannot be accepted yet; empty means ready.
func Problems(d Draft) []string {
	var out []string
	if strings.TrimSpace(d.Text) == "" {
		out = append(out, NoText)
	}
	answer := strings.TrimSpace(d.CorrectAnswer)
	if d.Type != TypeMCQ {
		if answer == "" {
			out = append(out, NoAnswer)
		}
		return out
	}
	options := CleanOptions(d.Options)
	if len(options) < 2 {
		out = append(out, FewOptions)
	}
	if hasDuplicate(options) {
		out = append(out, DuplicateOption)
	}
	switch {
	case answer == "":
		out = append(out, NoAnswerMarked)
	case !contains(options, answer):
		out = append(out, AnswerNotOption)
	}
	return out
}

// CleanOptions trims each option and drops blank ones.
func CleanOptions(options []string) []string {
	out := make([]string, 0, len(options))
	for _, o := range options {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// OptionsFromLines reads options as edited: one per line, blank lines
// ignored, Windows line ends accepted.
func OptionsFromLines(text string) []string {
	return CleanOptions(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))
}

// hasDuplicate compares options case-insensitively, as the bank does.
func hasDuplicate(options []string) bool {
	seen := make(map[string]bool, len(options))
	for _, o := range options {
		k := strings.ToLower(o)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
