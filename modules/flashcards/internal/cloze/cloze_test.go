package cloze

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseAndRender(t *testing.T) {
	p, err := Parse("{{c1::Mitral::valve}} stenosis gives an {{c2::opening snap}} after {{c1::S2}}.")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Numbers(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("Numbers = %v", got)
	}
	q, full, answers := p.Render(1)
	if q != "[valve] stenosis gives an opening snap after [...]." {
		t.Errorf("question 1 = %q", q)
	}
	if full != "Mitral stenosis gives an opening snap after S2." {
		t.Errorf("full = %q", full)
	}
	if !slices.Equal(answers, []string{"Mitral", "S2"}) {
		t.Errorf("answers 1 = %q", answers)
	}
	q, _, answers = p.Render(2)
	if q != "Mitral stenosis gives an [...] after S2." || !slices.Equal(answers, []string{"opening snap"}) {
		t.Errorf("card 2 = %q %q", q, answers)
	}
}

func TestThreeDeletionsMakeThreeCards(t *testing.T) {
	p, err := Parse("{{c3::a}} {{c1::b}} {{c2::c}} {{c10::d}}")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Numbers(); !slices.Equal(got, []int{1, 2, 3, 10}) {
		t.Fatalf("Numbers = %v", got)
	}
}

func TestRefused(t *testing.T) {
	cases := map[string]string{
		"no deletion at all":               "at least one deletion",
		"{{c1::outer {{c2::inner}} text}}": "cannot be nested",
		"{{c1::never closed":               "never closed",
		"{{x1::answer}}":                   "not a deletion",
		"{{c1}}":                           "not a deletion",
		"{{c::answer}}":                    "not a deletion",
		"{{cx::answer}}":                   "whole number",
		"{{c0::answer}}":                   "whole number",
		"{{c-1::answer}}":                  "whole number",
		"{{c+1::answer}}":                  "whole number",
		"{{c1000::answer}}":                "whole number",
		"{{c1::  ::hint}}":                 "answer is empty",
		"{{c1::a::b::c}}":                  "at most one hint",
		"{{c1::a}} and {{c2::b":            "never closed",
		strings.Repeat("x", MaxBytes+1):    "longer than",
		strings.Repeat("{{c1::a}}", 101):   "at most 100",
	}
	for in, want := range cases {
		_, err := Parse(in)
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(ce.Msg, want) {
			t.Errorf("Parse(%.30q) = %v, want a message containing %q", in, err, want)
		}
	}
}

func TestStrayClosingBracesAreText(t *testing.T) {
	p, err := Parse("a }} b {{c1::x}}")
	if err != nil {
		t.Fatal(err)
	}
	if q, _, _ := p.Render(1); q != "a }} b [...]" {
		t.Errorf("question = %q", q)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("{{c1::a::b}} {{c2::c}}")
	f.Add("{{c1::{{")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		for _, n := range p.Numbers() {
			if _, _, answers := p.Render(n); len(answers) == 0 {
				t.Fatalf("card %d hides nothing", n)
			}
		}
	})
}
