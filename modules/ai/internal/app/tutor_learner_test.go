package app

import (
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/library"
)

func TestLearnerBriefStaysWithinItsCapKeepingTheRecordBeforeTheReading(t *testing.T) {
	wrong, pace := false, 41.6
	l := &learnerBrief{own: []attempts.Answered{{QuestionID: 1, Mode: "learning", Answer: "Gamma", Correct: &wrong,
		Seconds: &pace, At: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}}}
	for i := range readingArticles * readingSections * 3 {
		l.reading = append(l.reading, library.ClaimedSection{ArticleTitle: "Valves", Heading: string(rune('A' + i)),
			Text: strings.Repeat("x", readingChars)})
	}
	var b strings.Builder
	l.write(&b)
	got := b.String()
	if len(got) > learnerBriefCap {
		t.Fatalf("the block is %d characters, over the cap of %d", len(got), learnerBriefCap)
	}
	if !strings.Contains(got, `- 2026-11-28, study attempt: chose "Gamma" — wrong; about 42 s a question in that sitting`) {
		t.Errorf("the learner's answer is missing or misworded:\n%s", got)
	}
	if !strings.Contains(got, "### Valves: A\n") || strings.Count(got, "### Valves") >= len(l.reading) {
		t.Errorf("the reading should be cut by whole sections, got %d of %d", strings.Count(got, "### Valves"), len(l.reading))
	}
}

func TestAnsweredNeverSaysRightOrWrongWhenItMayNotBeTold(t *testing.T) {
	got := answered(attempts.Answered{Mode: "timed", Answer: "Gamma", Running: true})
	if got != `in a timed attempt not yet submitted: chose "Gamma" (right or wrong: not shown to them yet)` {
		t.Errorf("got %q", got)
	}
	if got := answered(attempts.Answered{Mode: "timed", At: time.Now()}); !strings.Contains(got, "left it blank") {
		t.Errorf("a blank answer: %q", got)
	}
}
