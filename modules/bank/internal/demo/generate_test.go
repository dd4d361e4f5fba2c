package demo

import (
	"slices"
	"strings"
	"testing"
)

func TestGenerateIsDeterministicAndSized(t *testing.T) {
	a, b := Generate(), Generate()
	if len(a.Questions) != len(b.Questions) {
		t.Fatalf("sizes differ: %d vs %d", len(a.Questions), len(b.Questions))
	}
	for i := range a.Questions {
		if a.Questions[i].Text != b.Questions[i].Text || !slices.Equal(a.Questions[i].Options, b.Questions[i].Options) {
			t.Fatalf("question %d differs between runs", i)
		}
	}
	if n := len(a.Questions); n < 300 || n > 600 {
		t.Fatalf("want a few hundred questions, got %d", n)
	}
}

func TestEveryQuestionIsValid(t *testing.T) {
	b := Generate()
	categories := map[string]bool{}
	for _, c := range b.Categories {
		categories[c.Parent+"/"+c.Name] = true
	}
	for i, q := range b.Questions {
		if !categories[q.System+"/"+q.Category] {
			t.Errorf("question %d filed under unknown category %s/%s", i, q.System, q.Category)
		}
		if q.Subject == "" || q.Disease == "" || q.Explanation == "" || len(q.KeyPoints) == 0 {
			t.Errorf("question %d lacks tags or answer side: %+v", i, q)
		}
		switch q.Type {
		case "mcq":
			if len(q.Options) != 4 {
				t.Errorf("question %d has %d options", i, len(q.Options))
			}
			seen := map[string]bool{}
			for _, o := range q.Options {
				if seen[strings.ToLower(o)] {
					t.Errorf("question %d repeats option %q", i, o)
				}
				seen[strings.ToLower(o)] = true
			}
			if !slices.Contains(q.Options, q.CorrectAnswer) {
				t.Errorf("question %d: answer %q not among options", i, q.CorrectAnswer)
			}
			if len(q.OptionExplanations) != len(q.Options) {
				t.Errorf("question %d: %d option explanations for %d options", i, len(q.OptionExplanations), len(q.Options))
			}
			at := slices.Index(q.Options, q.CorrectAnswer)
			if !strings.HasPrefix(q.OptionExplanations[at], "Correct.") {
				t.Errorf("question %d: the correct option's explanation does not say so", i)
			}
		case "fill_in":
			if len(q.Options) != 0 || !strings.HasPrefix(q.CorrectAnswer, q.Disease) {
				t.Errorf("question %d: bad fill-in %+v", i, q)
			}
		default:
			t.Errorf("question %d: type %q", i, q.Type)
		}
	}
}

func TestQuizzesPointAtQuestions(t *testing.T) {
	b := Generate()
	if len(b.Quizzes) < 10 {
		t.Fatalf("want a quiz per system, got %d", len(b.Quizzes))
	}
	for _, z := range b.Quizzes {
		if len(z.Questions) == 0 {
			t.Errorf("quiz %q is empty", z.Title)
		}
		for _, i := range z.Questions {
			if i < 0 || i >= len(b.Questions) {
				t.Errorf("quiz %q points at question %d", z.Title, i)
			}
		}
	}
}

func TestFactsAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, c := range conditions {
		for _, f := range []string{c.Name, c.Presentation} {
			key := strings.ToLower(f)
			if other, ok := seen[key]; ok {
				t.Errorf("%q appears for %s and %s", f, other, c.Name)
			}
			seen[key] = c.Name
		}
	}
}

func TestLowerFirstKeepsAcronymsAndNames(t *testing.T) {
	for in, want := range map[string]string{
		"Rupture of a plaque": "rupture of a plaque",
		"NSAID analgesia":     "NSAID analgesia",
		"HLA-B27 associated":  "HLA-B27 associated",
		"Helicobacter pylori": "Helicobacter pylori",
		"12-lead ECG":         "12-lead ECG",
	} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
