package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/modules/bank/tagging"
)

func TestParseTagsKeepsOnlyListedTagsUpToTheBound(t *testing.T) {
	byName := map[string][]int64{}
	var names []string
	for i := range 10 {
		name := fmt.Sprintf("Tag %d", i)
		byName[foldName(name)] = []int64{int64(100 + i)}
		names = append(names, fmt.Sprintf("%q", name))
	}
	batch := []tagging.Question{{ID: 1}, {ID: 2}}
	reply := "```json\n" + `{"questions":[
		{"id":1,"tags":["  tag   0 ","TAG 1","Invented","Tag 1"]},
		{"id":2,"tags":[` + strings.Join(names, ",") + `]},
		{"id":3,"tags":["Tag 2"]}]}` + "\n```"
	out := &tagging.Picks{Tags: map[int64][]int64{}}
	if err := parseTags(reply, batch, byName, out); err != nil {
		t.Fatal(err)
	}
	if got := out.Tags[1]; !slices.Equal(got, []int64{100, 101}) {
		t.Errorf("question 1: %v (case and spacing ignored, a repeat kept once, an invented tag dropped)", got)
	}
	if got := out.Tags[2]; len(got) != tagging.MaxPerQuestion {
		t.Errorf("question 2: %d tags, want the first %d", len(got), tagging.MaxPerQuestion)
	}
	if _, ok := out.Tags[3]; ok {
		t.Error("a question not asked about was kept")
	}
	if out.Dropped != 1+10-tagging.MaxPerQuestion {
		t.Errorf("dropped %d", out.Dropped)
	}
}

func TestParseTagsRefusesWhatIsNotTheJSONAskedFor(t *testing.T) {
	batch := []tagging.Question{{ID: 1}}
	for reply, why := range map[string]string{
		"Cardiology, mostly.":                                      "no JSON object",
		`{"questions":[{"id":1,"tags":"Cardiology"}]}`:             "not the JSON asked for",
		`{"questions":[{"id":"one","tags":["Cardiology"]}]}`:       "not the JSON asked for",
		`{"questions":[` + strings.Repeat(" ", tagMaxReply) + `]}`: "more than",
	} {
		err := parseTags(reply, batch, map[string][]int64{"cardiology": {1}}, &tagging.Picks{Tags: map[int64][]int64{}})
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%.40q: got %v, want %q", reply, err, why)
		}
	}
}
