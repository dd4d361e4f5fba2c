package typein

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		given, answer string
		accents       bool
		want          bool
	}{
		{"Mitral", "mitral", false, true},
		{"  mitral stenosis ", "Mitral  Stenosis", false, true},
		{"aortic", "mitral | aortic|tricuspid", false, true},
		{"pulmonary", "mitral|aortic", false, false},
		{"", "mitral", false, false},
		{"   ", " | ", false, false},
		{"Guillain-Barre", "Guillain-Barré", false, false},
		{"Guillain-Barre", "Guillain-Barré", true, true},
		{"guillain-barré", "Guillain-Barre\u0301", false, true}, // combining acute equals precomposed
		{"Sjogren", "Sjögren|Sicca", true, true},
		{"mitra", "mitral", false, false},
		{strings.Repeat("a", MaxAnswer+1), strings.Repeat("a", MaxAnswer+1), false, false},
	}
	for _, c := range cases {
		if got := Match(c.given, c.answer, c.accents); got != c.want {
			t.Errorf("Match(%q, %q, %v) = %v, want %v", c.given, c.answer, c.accents, got, c.want)
		}
	}
}

func TestAlternatives(t *testing.T) {
	got := Alternatives(" a | | b|c ")
	if strings.Join(got, ",") != "a,b,c" {
		t.Fatalf("Alternatives = %q", got)
	}
}
