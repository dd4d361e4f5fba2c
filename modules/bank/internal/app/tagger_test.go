package app

import (
	"slices"
	"testing"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

func TestWordsFoldsCaseAccentsAndPunctuation(t *testing.T) {
	for in, want := range map[string]string{
		"Crohn's disease":      " crohn s disease ",
		"  Ménière's,DISEASE!": " meniere s disease ",
		"":                     " ",
		"B12-deficiency":       " b12 deficiency ",
	} {
		if got := words(in); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTaggerMatchesWholeWordsInStemAnswerAndExplanation(t *testing.T) {
	tg := newTagger([]store.Tag{
		{ID: 1, Name: "Crohn's disease"},
		{ID: 2, Name: "Gout"},
		{ID: 3, Name: "Therapeutics"},
		{ID: 4, Name: "Asthma"},
		{ID: 5, Name: "  "}, // a blank name is no rule
	})
	q := store.QuestionText{
		QuestionText:  "Which drug treats an acute attack? (THERAPEUTICS)",
		CorrectAnswer: "Colchicine",
		Explanation:   "In CROHN’S   disease and gouty arthritis alike...",
	}
	if got := tg.match(q); !slices.Equal(got, []int64{1, 3}) {
		t.Fatalf("match = %v, want [1 3] (gout is not gouty; asthma absent)", got)
	}
	if got := tg.match(store.QuestionText{CorrectAnswer: "Gout"}); !slices.Equal(got, []int64{2}) {
		t.Fatalf("the correct answer is read: %v", got)
	}
	if got := tg.match(store.QuestionText{QuestionText: "Crohnsdisease"}); got != nil {
		t.Fatalf("words must not run together: %v", got)
	}
}
