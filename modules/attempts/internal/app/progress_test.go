package app

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/platform/apperr"
)

// plainPairs reads an object of plain strings (the answers text the body
// reader keeps) as encoding/json reads it, spacing and all.
func TestPlainPairs(t *testing.T) {
	for _, object := range []string{
		`{}`, ` { } `, `{"9":"a"}`, `{"9":"a","10":"b","100":""}`,
		"{ \"3\" : \"a b\" ,\n\t\"4\":\"x:y,z}{\" }", `{"1":"é🎉","22":"[]"}`,
	} {
		var want map[string]string
		if err := json.Unmarshal([]byte(object), &want); err != nil {
			t.Fatal(err)
		}
		if got := maps.Collect(plainPairs(object)); !maps.Equal(got, want) {
			t.Errorf("%s: read %v, want %v", object, got, want)
		}
	}
}

// Both forms of a save's answers are checked alike; too many answers is
// reported before a bad key.
func TestCheckAnswers(t *testing.T) {
	many := map[string]string{"x": "bad key"}
	for i := range maxSavedAnswers {
		many[strconv.Itoa(i+1)] = "a"
	}
	cases := []struct {
		in   SaveInput
		want string // "" when accepted
	}{
		{SaveInput{Answers: map[string]string{"7": "a", "8": ""}}, ""},
		{SaveInput{AnswersJSON: `{"7":"a","8":""}`}, ""},
		{SaveInput{AnswersJSON: `{"0":"a"}`}, `"0" is not one`},
		{SaveInput{AnswersJSON: `{"7":"` + strings.Repeat("a", maxAnswerLength+1) + `"}`}, "longer than"},
		{SaveInput{Answers: many}, "at most 1000 answers"},
	}
	for _, c := range cases {
		ids := map[int64]string{}
		err := checkAnswers(c.in.answers(), func(_ string, id int64, v string) { ids[id] = v })
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.in, err)
		case c.want == "" && (len(ids) != 2 || ids[7] != "a"):
			t.Errorf("%+v: handed %v", c.in, ids)
		case c.want != "" && (!apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%.60v: %v, want %q", c.in, err, c.want)
		}
	}
}
