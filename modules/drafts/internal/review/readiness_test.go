package review

import (
	"reflect"
	"testing"
)

func TestProblems(t *testing.T) {
	cases := []struct {
		name  string
		draft Draft
		want  []string
	}{
		{"ready mcq", Draft{TypeMCQ, "Q?", []string{"a", "b"}, "b"}, nil},
		{"ready fill-in", Draft{TypeFillIn, "Q?", nil, "mitral"}, nil},
		{"no text", Draft{TypeMCQ, "  ", []string{"a", "b"}, "a"}, []string{NoText}},
		{"one option", Draft{TypeMCQ, "Q?", []string{"a", " "}, "a"}, []string{FewOptions}},
		{"nothing marked", Draft{TypeMCQ, "Q?", []string{"a", "b"}, ""}, []string{NoAnswerMarked}},
		{"answer not an option", Draft{TypeMCQ, "Q?", []string{"a", "b"}, "c"}, []string{AnswerNotOption}},
		{"fill-in without answer", Draft{TypeFillIn, "Q?", nil, " "}, []string{NoAnswer}},
		{"everything wrong", Draft{TypeMCQ, "", nil, ""}, []string{NoText, FewOptions, NoAnswerMarked}},
		{"duplicate option", Draft{TypeMCQ, "Q?", []string{"Aspirin", "aspirin", "b"}, "b"}, []string{DuplicateOption}},
		{"answer trimmed", Draft{TypeMCQ, "Q?", []string{" a ", "b"}, " a"}, nil},
	}
	for _, c := range cases {
		if got := Problems(c.draft); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOptionsFromLines(t *testing.T) {
	got := OptionsFromLines("Aspirin\r\n\n  Heparin \nWarfarin\n")
	if !reflect.DeepEqual(got, []string{"Aspirin", "Heparin", "Warfarin"}) {
		t.Fatalf("got %q", got)
	}
}
