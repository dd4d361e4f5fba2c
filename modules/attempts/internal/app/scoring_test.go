package app

import "testing"

func TestIsCorrectMCQ(t *testing.T) {
	cases := []struct {
		correct, answer string
		want            bool
	}{
		{"Aspirin", "Aspirin", true},
		{"Aspirin", "  Aspirin ", true},
		{"Aspirin", "aspirin", false}, // an option is chosen, not typed
		{"Aspirin", "Heparin", false},
		{"Aspirin", "", false},
	}
	for _, c := range cases {
		if got := IsCorrect("mcq", c.correct, c.answer); got != c.want {
			t.Errorf("mcq %q vs %q: got %v, want %v", c.correct, c.answer, got, c.want)
		}
	}
}

func TestIsCorrectFillIn(t *testing.T) {
	cases := []struct {
		correct, answer string
		want            bool
	}{
		{"Mitral stenosis", "mitral stenosis", true},
		{"Mitral stenosis", "  MITRAL   stenosis\t", true},
		{"MI|myocardial infarction|heart attack", "Heart Attack", true},
		{"MI|myocardial infarction", "myocardial  infarction", true},
		{"MI|myocardial infarction", "infarction", false},
		{"Straße", "STRASSE", true}, // full case folding
		{"ｐＨ", "ph", true},          // compatibility forms (full-width letters)
		{"a||b", "", false},         // empty alternatives never match
		{"", "", false},
		{"Na+", "na +", false}, // inner spaces are not removed, only collapsed
	}
	for _, c := range cases {
		if got := IsCorrect("fill_in", c.correct, c.answer); got != c.want {
			t.Errorf("fill_in %q vs %q: got %v, want %v", c.correct, c.answer, got, c.want)
		}
	}
}

func TestPercentage(t *testing.T) {
	if got := Percentage(1, 3); got != 33.33 {
		t.Errorf("1/3: got %v", got)
	}
	if got := Percentage(2, 2); got != 100 {
		t.Errorf("2/2: got %v", got)
	}
	if got := Percentage(0, 0); got != 0 {
		t.Errorf("0/0: got %v", got)
	}
}
