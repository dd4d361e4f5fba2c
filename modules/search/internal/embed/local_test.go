package embed

import (
	"context"
	"testing"
)

func sim(l *Local, a, b string) float64 { return Cosine(l.Vector(a), l.Vector(b)) }

func TestLocalFindsSynonymsAndAbbreviations(t *testing.T) {
	l := NewLocal(384)
	stem := "Which drug is first-line for high blood pressure in a diabetic patient?"
	related := sim(l, "hypertension treatment diabetes", stem)
	unrelated := sim(l, "fracture of the distal radius in children", stem)
	if related < 0.55 {
		t.Fatalf("paraphrase similarity %.3f, want at least 0.55", related)
	}
	if unrelated > 0.3 {
		t.Fatalf("unrelated similarity %.3f, want at most 0.3", unrelated)
	}
	if got := sim(l, "MI", "myocardial infarction"); got < 0.7 {
		t.Fatalf("abbreviation similarity %.3f", got)
	}
	if got := sim(l, "heart attack management", "treatment of myocardial infarction"); got < 0.6 {
		t.Fatalf("lay term similarity %.3f", got)
	}
}

func TestLocalToleratesInflectionAndTypos(t *testing.T) {
	l := NewLocal(384)
	if got := sim(l, "cardiomyopathies", "cardiomyopathy"); got < 0.5 {
		t.Fatalf("inflection similarity %.3f", got)
	}
	if got := sim(l, "hypertrophic cardiomyopaty", "hypertrophic cardiomyopathy"); got < 0.45 {
		t.Fatalf("typo similarity %.3f", got)
	}
}

func TestLocalVectorShape(t *testing.T) {
	l := NewLocal(64)
	vs, err := l.Embed(context.Background(), []string{"asthma in pregnancy", "", "the of and"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs[0]) != 64 || checkVector(vs[0], 64) != nil {
		t.Fatalf("bad vector %v", vs[0])
	}
	if got := Cosine(vs[0], vs[0]); got < 0.999 {
		t.Fatalf("not unit length: %.4f", got)
	}
	if vs[1] != nil || vs[2] != nil {
		t.Fatal("blank and stop-word-only texts must have no vector")
	}
	again := l.Vector("asthma in pregnancy")
	for i := range again {
		if again[i] != vs[0][i] {
			t.Fatal("embedding is not deterministic")
		}
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{"kidneys": "kidney", "treated": "treat", "bleeding": "bleed",
		"therapies": "therapy", "diagnosis": "diagnosis", "virus": "virus", "pass": "pass"} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}
