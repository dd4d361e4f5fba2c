package app

import (
	"strings"
	"testing"

	"github.com/roundsedu/rounds/modules/bank"
)

func TestParseArticleReadsTitleSummaryAndSectionsOutsideFences(t *testing.T) {
	a, err := parseArticle("# T\nSum.\n## A\none\n```\n## fenced\n```\n## Empty\n\n## B\ntwo")
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "T" || a.Summary != "Sum." || len(a.Sections) != 2 || a.Sections[1].Heading != "B" ||
		!strings.Contains(a.Sections[0].Markdown, "## fenced") {
		t.Fatalf("got %+v", a)
	}
	for text, want := range map[string]string{
		"no headings at all":                                 "no sections",
		strings.Repeat("## s\nx\n", genMaxSections+1):        "more than 40 sections",
		"## s\n" + strings.Repeat("x", genMaxSectionRunes+1): "longer than",
	} {
		if _, err := parseArticle(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: got %v, want %q", text, err, want)
		}
	}
}

func TestParseSectionKeepsTheHeadingAskedFor(t *testing.T) {
	if s, err := parseSection("## Renamed\nbody", "Signs"); err != nil || s.Heading != "Signs" || s.Markdown != "body" {
		t.Fatalf("got %+v %v", s, err)
	}
	if s, err := parseSection("just the body", "Signs"); err != nil || s.Markdown != "just the body" {
		t.Fatalf("got %+v %v", s, err)
	}
	if _, err := parseSection("## A\na\n## B\nb", "Signs"); err == nil {
		t.Fatal("two sections for one")
	}
}

func TestParseCardsIsBounded(t *testing.T) {
	cards, err := parseCards("```json\n{\"cards\":[{\"type\":\"basic\",\"front\":\"q\",\"back\":\"a\"}]}\n```")
	if err != nil || len(cards) != 1 || cards[0].Front != "q" {
		t.Fatalf("got %v %v", cards, err)
	}
	many := `{"cards":[` + strings.Repeat(`{"type":"basic","front":"q","back":"a"},`, genMaxCards) + `{}]}`
	for _, text := range []string{"none", `{"cards":[]}`, many, `{"cards": 3}`} {
		if _, err := parseCards(text); err == nil {
			t.Errorf("%.30q accepted", text)
		}
	}
}

func TestParseRatingsKeepsOnlyAskedIDsAndKnownLevels(t *testing.T) {
	batch := []bank.RatedQuestion{{ID: 1}, {ID: 2}, {ID: 3}}
	got, err := parseRatings(`{"ratings":[{"id":1,"difficulty":" Easy"},{"id":2,"difficulty":"tricky"},{"id":9,"difficulty":"hard"}]}`, batch)
	if err != nil || len(got) != 1 || got[1] != "easy" {
		t.Fatalf("got %v %v", got, err)
	}
	for _, text := range []string{"all easy", `{"ratings":"x"}`, "{" + strings.Repeat(" ", rateMaxReply) + "}"} {
		if _, err := parseRatings(text, batch); err == nil {
			t.Errorf("%.20q accepted", text)
		}
	}
}
