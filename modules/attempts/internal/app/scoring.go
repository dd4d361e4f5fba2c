package app

import (
	"math"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/roundsedu/rounds/modules/bank"
)

// IsCorrect grades one answer against a question as sat.
//
// MCQ: the answer is the text of the chosen option; it is right when it is
// the correct option (surrounding whitespace ignored, nothing else), so a
// shuffled order of options changes nothing.
//
// Fill-in: the correct answer lists accepted alternatives separated by "|";
// the answer is right when it matches one of them after normalising both
// sides: Unicode compatibility forms folded (NFKC), case folded, surrounding
// whitespace trimmed and inner runs of whitespace collapsed to one space.
// An empty answer is never right.
func IsCorrect(questionType, correct, answer string) bool {
	if strings.TrimSpace(answer) == "" {
		return false
	}
	if questionType == bank.TypeMCQ {
		return strings.TrimSpace(answer) == strings.TrimSpace(correct)
	}
	given := NormalizeFillIn(answer)
	for _, alt := range strings.Split(correct, "|") {
		if a := NormalizeFillIn(alt); a != "" && a == given {
			return true
		}
	}
	return false
}

var folder = cases.Fold()

// NormalizeFillIn is the normalisation fill-in answers are compared under.
func NormalizeFillIn(s string) string {
	s = norm.NFKC.String(s)
	s = folder.String(s)
	return strings.Join(strings.Fields(s), " ")
}

// Percentage is score out of total as a percentage with two decimals.
func Percentage(score, total int) float64 {
	if total <= 0 {
		return 0
	}
	return math.Round(float64(score)*10000/float64(total)) / 100
}
