package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/modules/drafts/extraction"

	"github.com/roundsedu/rounds/platform/apperr"
)

func TestParseReplyKeepsThreeFollowUpsOutOfTheAnswer(t *testing.T) {
	got := parseReply("**Mitral stenosis.**\n\nThe snap follows S2.\n> Why?\n>   How is it timed?  \n> What else?\n> A fourth\n>\n")
	if got.Reply != "**Mitral stenosis.**\n\nThe snap follows S2." {
		t.Errorf("reply %q", got.Reply)
	}
	if want := []string{"Why?", "How is it timed?", "What else?"}; len(got.Suggestions) != 3 ||
		got.Suggestions[0] != want[0] || got.Suggestions[1] != want[1] || got.Suggestions[2] != want[2] {
		t.Errorf("suggestions %q", got.Suggestions)
	}
	if none := parseReply("Just an answer."); none.Suggestions == nil || len(none.Suggestions) != 0 {
		t.Errorf("no follow-ups must be an empty list, got %#v", none.Suggestions)
	}
}

func service(t *testing.T, current, previous string) *Service {
	t.Helper()
	s := &Service{}
	for _, k := range []string{current, previous} {
		if k == "" {
			continue
		}
		aead, err := sealer(k)
		if err != nil {
			t.Fatal(err)
		}
		s.sealers = append(s.sealers, aead)
	}
	return s
}

const (
	oldKey = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	newKey = "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA="
)

func TestKeysStillOpenAfterARotation(t *testing.T) {
	sealed, err := service(t, oldKey, "").seal("sk-live-1")
	if err != nil {
		t.Fatal(err)
	}
	rotated := service(t, newKey, oldKey)
	if plain, err := rotated.open(sealed); err != nil || plain != "sk-live-1" {
		t.Fatalf("after rotation: %q %v", plain, err)
	}
	if _, err := service(t, newKey, "").open(sealed); err == nil {
		t.Fatal("a key sealed with a dropped key must not open")
	}
	resealed, _ := rotated.seal("sk-live-1")
	if plain, err := service(t, newKey, "").open(resealed); err != nil || plain != "sk-live-1" {
		t.Fatalf("new seals use the current key: %q %v", plain, err)
	}
}

func TestNoEncryptionKeyRefusesToStoreAKey(t *testing.T) {
	_, err := (&Service{}).seal("sk")
	if ae, ok := apperr.As(err); !ok || ae.Fields[0].Field != "api_key" {
		t.Fatalf("want a 422 on api_key, got %v", err)
	}
	if _, err := sealer("c2hvcnQ="); err == nil {
		t.Fatal("a key that is not 32 bytes must be refused")
	}
}

func TestCitations(t *testing.T) {
	for text, want := range map[string][]int{
		"No sources.":                       nil,
		"A [1], B [2][3], again [1].":       {1, 2, 3},
		"Out of range [0] [4] [12] [1234].": nil,
		"[3] first, then [2].":              {3, 2},
		"Not a citation: [1a] [ 2 ] [].":    nil,
	} {
		if got := citations(text, 3); !slices.Equal(got, want) {
			t.Errorf("citations(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestParseExtractionKeepsUsableQuestionsAndRefusesWhatIsNotJSON(t *testing.T) {
	got, err := parseExtraction("Here you are:\n```json\n"+`{"questions":[
		{"type":"mcq","text":" Which? ","options":["A"," B "],"correct_answer":"B","page":9},
		{"type":"fill_in","text":"Blank ____","options":["x"]},
		{"type":"fill_in","text":"Gap ____","page":2}]}`+"\n```", 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text != "Which?" || !slices.Equal(got[0].Options, []string{"A", "B"}) || got[0].Page != 0 ||
		got[1].Text != "Gap ____" || got[1].Page != 2 {
		t.Errorf("got %+v", got)
	}
	for _, bad := range []string{"no questions here", `{"questions": "many"}`, "{" + strings.Repeat(" ", extractMaxReply) + "}"} {
		if _, err := parseExtraction(bad, 1, 3); err == nil {
			t.Errorf("parseExtraction(%.40q) gave no error", bad)
		}
	}
	many := `{"questions":[` + strings.TrimSuffix(strings.Repeat(`{"type":"fill_in","text":"t"},`, 500), ",") + `]}`
	if got, err := parseExtraction(many, 1, 1); err != nil || len(got) != extractMaxPerCall {
		t.Errorf("500 questions: kept %d (%v), want %d", len(got), err, extractMaxPerCall)
	}
}

func TestPageChunksKeepWholePagesWithinTheLimit(t *testing.T) {
	pages := []extraction.Page{{Number: 1, Text: "aaaa"}, {Number: 2, Text: "  "}, {Number: 3, Text: "bbbb"},
		{Number: 4, Text: strings.Repeat("c", 20)}, {Number: 5, Text: "dd"}}
	var got [][]int
	for _, chunk := range pageChunks(pages, 10) {
		var ns []int
		for _, p := range chunk {
			ns = append(ns, p.Number)
			if len(p.Text) > 10 {
				t.Errorf("page %d keeps %d runes", p.Number, len(p.Text))
			}
		}
		got = append(got, ns)
	}
	if want := [][]int{{1, 3}, {4}, {5}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("chunks %v, want %v", got, want)
	}
}
