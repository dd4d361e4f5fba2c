package embed

import (
	"strings"
	"unicode"
)

// words splits text into lower-case alphanumeric words; everything else
// (punctuation, hyphens, apostrophes) separates them, so "45-year-old" is
// three words and "Parkinson's" becomes "parkinson" and "s".
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '+'
	})
}

// stem strips the commonest English inflections. It is crude on purpose:
// the same rules run on the lexicon and on every text, so what matters is
// that "kidneys" and "kidney", "treated" and "treat" meet, not that the
// result is a real word.
func stem(w string) string {
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ing") && n > 5:
		return w[:n-3]
	case strings.HasSuffix(w, "ed") && n > 4 && !strings.HasSuffix(w, "eed"):
		return w[:n-2]
	case strings.HasSuffix(w, "ly") && n > 4:
		return w[:n-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

// isNumber reports a word made only of digits: ages, doses and lab values
// say little about the topic on their own.
func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// lexicon maps a stemmed phrase ("heart attack") to its concept.
type lexicon struct {
	phrases map[string]string
	longest int
}

func buildLexicon(forms map[string][]string) *lexicon {
	lx := &lexicon{phrases: map[string]string{}}
	for concept, list := range forms {
		for _, f := range list {
			ws := words(f)
			for i := range ws {
				ws[i] = stem(ws[i])
			}
			lx.phrases[strings.Join(ws, " ")] = concept
			if len(ws) > lx.longest {
				lx.longest = len(ws)
			}
		}
	}
	return lx
}

// match finds the longest phrase starting at stems[i]: its concept and
// length, or "" and 0.
func (lx *lexicon) match(stems []string, i int) (string, int) {
	for l := min(lx.longest, len(stems)-i); l >= 1; l-- {
		if c, ok := lx.phrases[strings.Join(stems[i:i+l], " ")]; ok {
			return c, l
		}
	}
	return "", 0
}
