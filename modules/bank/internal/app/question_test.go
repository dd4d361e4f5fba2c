package app

import (
	"strings"
	"testing"
)

func fields(c Content) []string {
	var out []string
	for _, f := range c.normalize() {
		out = append(out, f.Field)
	}
	return out
}

func TestNormalizeTrimsAndAccepts(t *testing.T) {
	c := Content{Type: TypeMCQ, Text: "  Stem  ", Options: []string{" A ", "B"}, CorrectAnswer: " A ",
		KeyPoints: []string{"x", "  "}}
	if bad := c.normalize(); len(bad) != 0 {
		t.Fatalf("unexpected problems: %+v", bad)
	}
	if c.Text != "Stem" || c.Options[0] != "A" || c.CorrectAnswer != "A" || len(c.KeyPoints) != 1 || c.Figures == nil {
		t.Fatalf("not normalised: %+v", c)
	}
}

func TestNormalizeRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		c    Content
		want string
	}{
		"answer not an option": {Content{Type: TypeMCQ, Text: "s", Options: []string{"a", "b"}, CorrectAnswer: "c"}, "correct_answer"},
		"one option":           {Content{Type: TypeMCQ, Text: "s", Options: []string{"a"}, CorrectAnswer: "a"}, "options"},
		"same option twice":    {Content{Type: TypeMCQ, Text: "s", Options: []string{"a", "A"}, CorrectAnswer: "a"}, "options[1]"},
		"fill-in with options": {Content{Type: TypeFillIn, Text: "s", Options: []string{"a"}, CorrectAnswer: "a"}, "options"},
		"fill-in only bars":    {Content{Type: TypeFillIn, Text: "s", CorrectAnswer: " | "}, "correct_answer"},
		"url path":             {Content{Type: TypeFillIn, Text: "s", CorrectAnswer: "a", ImagePath: "http://x/y.png"}, "image_path"},
		"absolute path":        {Content{Type: TypeFillIn, Text: "s", CorrectAnswer: "a", ImagePath: "/etc/x.png"}, "image_path"},
		"figure role":          {Content{Type: TypeFillIn, Text: "s", CorrectAnswer: "a", Figures: []Figure{{Path: "a.png", Role: "x"}}}, "figures[0].role"},
		"explanations count":   {Content{Type: TypeMCQ, Text: "s", Options: []string{"a", "b"}, CorrectAnswer: "a", OptionExplanations: []string{"x"}}, "option_explanations"},
	} {
		got := fields(c.c)
		if !strings.Contains(strings.Join(got, ","), c.want) {
			t.Errorf("%s: problems %v, want %s", name, got, c.want)
		}
	}
}

func TestRedactKeepsOnlyTheStemSide(t *testing.T) {
	q := &Question{Content: Content{CorrectAnswer: "a", Explanation: "e", AttendingTip: "t", ExplanationImagePath: "x.png",
		OptionExplanations: []string{"o"}, KeyPoints: []string{"k"},
		Figures: []Figure{{Path: "s.png", Role: RoleStem}, {Path: "a.png", Role: RoleAnswer}, {Path: "e.png", Role: RoleExplanation}}}}
	q.redact()
	if q.CorrectAnswer != "" || q.Explanation != "" || q.AttendingTip != "" || q.ExplanationImagePath != "" ||
		q.OptionExplanations != nil || q.KeyPoints != nil || len(q.Figures) != 1 || q.Figures[0].Role != RoleStem {
		t.Fatalf("not redacted: %+v", q)
	}
}

func TestPatchOntoDropsStaleOptionExplanations(t *testing.T) {
	c := Content{Options: []string{"a", "b"}, OptionExplanations: []string{"x", "y"}}
	opts := []string{"a", "c"}
	if got := (Patch{Options: &opts, StaleExplanations: true}).onto(c); len(got.OptionExplanations) != 0 {
		t.Fatalf("stale explanations kept: %v", got.OptionExplanations)
	}
	same := []string{"a", "b"}
	if got := (Patch{Options: &same, StaleExplanations: true}).onto(c); len(got.OptionExplanations) != 2 {
		t.Fatalf("explanations of unchanged options dropped")
	}
	if got := (Patch{Options: &opts}).onto(c); len(got.OptionExplanations) != 2 {
		t.Fatalf("a plain patch must not drop explanations")
	}
}

func TestParseTypeReadsTheSpecsSpellings(t *testing.T) {
	for in, want := range map[string]string{
		"mcq": TypeMCQ, "MCQ": TypeMCQ, " Mcq ": TypeMCQ,
		"fill_in": TypeFillIn, "fill-in": TypeFillIn, "Fill In": TypeFillIn, "FILLIN": TypeFillIn,
		"non-MCQ": TypeFillIn, "non_mcq": TypeFillIn,
	} {
		if got, ok := ParseType(in); !ok || got != want {
			t.Errorf("ParseType(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "essay", "mcqs", "fill--in", "m c q"} {
		if got, ok := ParseType(in); ok {
			t.Errorf("ParseType(%q) = %q; want refused", in, got)
		}
	}
}
