package format

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestGIFTRoundTrip(t *testing.T) {
	qs := append([]Question(nil), sample...)
	qs[0].Text = "Escapes: ~ = # { } : \\ and a line\n\nafter a blank line"
	qs[0].Image, qs[0].ExplanationImage = nil, nil // a GIFT file carries no pictures
	qs[1].OptionFeedback = nil
	var buf bytes.Buffer
	if err := WriteGIFT(&buf, qs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadGIFT(&buf, lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Refused) != 0 {
		t.Fatalf("refused %+v\n%s", got.Refused, buf.String())
	}
	want := qs
	want[2].Text = strings.TrimSpace(want[2].Text)
	for i := range want {
		want[i].Tags = nil // GIFT has no tags
	}
	if !reflect.DeepEqual(got.Questions, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v\n%s", got.Questions, want, buf.String())
	}
}

const giftFile = `// A GIFT file as people write it
$CATEGORY: $course$/top/Pharmacology

::Beta blocker::[html]Which drug is a <b>beta</b> blocker? {
	~Amlodipine#A calcium channel blocker.
	=Metoprolol
	####Metoprolol is beta-1 selective.
}

Aspirin is an NSAID.{T}

Name the drug: {=aspirin =ASA}

::Blank::The {~left =right} ventricle pumps to the lungs.

::Essay::Discuss.{}

::Num::How many chambers? {#4}

::Match::Pair them {=a -> 1 =b -> 2}

::Partial::Pick {~%50%a ~%50%b ~c}

::Desc::Just a description.
`

func TestGIFTRead(t *testing.T) {
	got, err := ReadGIFT(strings.NewReader(giftFile), lim)
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{
		{Type: TypeMCQ, Name: "Beta blocker", Text: "Which drug is a **beta** blocker?", Options: []string{"Amlodipine", "Metoprolol"},
			OptionFeedback: []string{"A calcium channel blocker.", ""}, CorrectAnswer: "Metoprolol",
			Explanation: "Metoprolol is beta-1 selective.", Category: "Pharmacology"},
		{Type: TypeMCQ, Text: "Aspirin is an NSAID.", Options: []string{"True", "False"}, CorrectAnswer: "True", Category: "Pharmacology"},
		{Type: TypeFillIn, Text: "Name the drug:", CorrectAnswer: "aspirin|ASA", Category: "Pharmacology"},
		{Type: TypeMCQ, Name: "Blank", Text: "The _____ ventricle pumps to the lungs.", Options: []string{"left", "right"},
			OptionFeedback: []string{"", ""}, CorrectAnswer: "right", Category: "Pharmacology"},
	}
	if !reflect.DeepEqual(got.Questions, want) {
		t.Fatalf("questions:\n got %+v\nwant %+v", got.Questions, want)
	}
	wantRefused := []Refusal{
		{5, "Essay", "an essay question (no answers), which the bank cannot mark"},
		{6, "Num", "a numerical question, which the bank cannot hold"},
		{7, "Match", "a matching question, which the bank cannot hold"},
		{8, "Partial", "an answer has partial marks (%50%); the bank marks answers right or wrong"},
		{9, "Desc", "no answers in braces (a description, which is not a question)"},
	}
	if !reflect.DeepEqual(got.Refused, wantRefused) {
		t.Fatalf("refused %+v", got.Refused)
	}
}

func TestGIFTHostile(t *testing.T) {
	for name, c := range map[string]struct {
		file string
		want error
	}{
		"binary":     {"\x00\x01\x02PK", ErrMalformed{}},
		"not utf-8":  {"Q {=\xff\xfe}", ErrMalformed{}},
		"empty":      {"// only a comment\n\n", ErrMalformed{}},
		"too many":   {strings.Repeat("Q {=a}\n\n", 101), ErrTooMany{}},
		"long line":  {strings.Repeat("a", 10000), ErrMalformed{}},
		"unbalanced": {"Q {=a\n\n" + strings.Repeat("x\n\n", 50), nil},
	} {
		_, err := ReadGIFT(strings.NewReader(c.file), lim)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if !errors.Is(err, c.want) && reflect.TypeOf(err) != reflect.TypeOf(c.want) {
			t.Errorf("%s: got %v, want %T", name, err, c.want)
		}
	}
}
