package app

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

// tagger is the rule-based classifier: a subject or disease tag applies to
// a question whose stem, correct answer or explanation names it, as whole
// words, ignoring case and accents ("Crohn's disease" matches "crohn s
// DISEASE" but not "Crohnsdisease"). Options are not read: a distractor
// names a condition the question is not about.
type tagger struct{ rules []rule }

type rule struct {
	tagID  int64
	phrase string // the tag's name as words(), padded with spaces
}

func newTagger(tags []store.Tag) *tagger {
	t := &tagger{}
	for _, tg := range tags {
		if p := words(tg.Name); strings.TrimSpace(p) != "" {
			t.rules = append(t.rules, rule{tagID: tg.ID, phrase: p})
		}
	}
	return t
}

// match returns the tags that apply to a question, in the order given.
func (t *tagger) match(q store.QuestionText) []int64 {
	text := words(q.QuestionText + " \n " + q.CorrectAnswer + " \n " + q.Explanation)
	var out []int64
	for _, r := range t.rules {
		if strings.Contains(text, r.phrase) {
			out = append(out, r.tagID)
		}
	}
	return out
}

// words folds s (lower case, accents dropped) into its words, letters and
// digits only, each followed by one space and the whole led by one, so a
// phrase is found on word boundaries with a plain substring search.
func words(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	inWord := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			// a combining accent: dropped, the word goes on
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			inWord = true
		case inWord:
			b.WriteByte(' ')
			inWord = false
		}
	}
	if inWord {
		b.WriteByte(' ')
	}
	return b.String()
}
